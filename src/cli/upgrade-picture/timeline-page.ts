/**
 * The upgrade picture as one self-contained HTML page: inline CSS, inline SVG, a few lines of
 * inline script for the hover box, and a Content-Security-Policy that lets the page load nothing
 * else (docs/simulation.md#the-picture---html). Every text from the report is escaped. Pure.
 */
import { formatElapsed, formatInstant, timelineOf, type Lane, type Timeline, type Tone } from './timeline-lanes.js';
import {
  DEFAULT_LAYOUT,
  layoutTimeline,
  progressY,
  segmentRect,
  type Layout,
  type LayoutOptions,
} from './timeline-layout.js';
import type { UpgradeReport } from './upgrade-report.js';

/** Text safe in HTML and SVG content and in double- or single-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Two decimals at most: the markup stays small. */
function n(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** The tones' colours, and which of them the legend names. */
const TONES: Record<Tone, { fill: string; legend?: string }> = {
  window: { fill: '#cfe3ff', legend: 'maintenance window' },
  suspension: { fill: '#e5d4f5', legend: 'suspension window' },
  'op-idle': { fill: '#e3e3e3' },
  'op-pending': { fill: '#c9d6e8', legend: 'pending' },
  'op-active': { fill: '#7fb2e5', legend: 'upgrading' },
  'op-done': { fill: '#8fd19e', legend: 'done' },
  'op-failed': { fill: '#e57373', legend: 'failed' },
  wait: { fill: '#ffd180', legend: 'operator waits' },
  step: { fill: '#9fa8da' },
  'step-open': { fill: '#ffcc80' },
  warning: { fill: '#e65100', legend: 'Warning Event' },
  'cv-old': { fill: '#d7dde3' },
  'cv-partial': { fill: '#ffe082', legend: 'ClusterVersion Partial' },
  'cv-completed': { fill: '#a5d6a7', legend: 'ClusterVersion Completed' },
  'cv-event': { fill: '#37474f' },
  'co-version': { fill: '#1565c0', legend: 'new operator version' },
  'co-degraded': { fill: '#ef9a9a' },
  'pool-updating': { fill: '#90caf9', legend: 'pool updating (updated/total)' },
  'pool-degraded': { fill: '#ef5350' },
  'pool-paused': { fill: '#bdbdbd' },
  'node-update': { fill: '#b3e5fc' },
  'node-cordon': { fill: '#ffe0b2', legend: 'cordoned' },
  'node-drain': { fill: '#ffb74d', legend: 'cordon, drain' },
  'node-reboot': { fill: '#e57373', legend: 'reboot (NotReady)' },
  'node-uncordon': { fill: '#aed581', legend: 'ready, still cordoned' },
  'node-degraded': { fill: '#b71c1c' },
  'node-present': { fill: '#eef3ee', legend: 'node ready' },
  'alert-pending': { fill: '#fff176', legend: 'alert pending' },
  'alert-critical': { fill: '#c62828', legend: 'critical firing' },
  'alert-warning': { fill: '#ef6c00', legend: 'warning firing' },
  'alert-info': { fill: '#64b5f6', legend: 'info firing' },
  silence: { fill: '#b0bec5', legend: 'silence' },
};

/** Roughly how many characters of 11 px sans-serif fit in `width` px. */
function fits(width: number): number {
  return Math.floor((width - 6) / 6.3);
}

/** A label cut to `max` characters with an ellipsis. */
export function cut(text: string, max: number): string {
  if (max <= 0) return '';
  return text.length <= max ? text : max <= 1 ? '…' : `${text.slice(0, max - 1)}…`;
}

function title(lines: readonly string[]): string {
  return `<title>${escapeHtml(lines.join('\n'))}</title>`;
}

/** One lane: its band, its label, its segments with their hover texts, markers and progress. */
function laneSvg(lane: Lane, top: number, height: number, layout: Layout, index: number): string {
  const { scale, rowHeight } = layout;
  const parts: string[] = [
    `<g class="lane" data-group="${escapeHtml(lane.group)}" data-id="${escapeHtml(lane.id)}" data-name="${escapeHtml(lane.label)}">`,
    `<rect class="band${index % 2 ? ' odd' : ''}" x="0" y="${n(top)}" width="${n(layout.width)}" height="${n(height)}"/>`,
    `<text class="label" x="8" y="${n(top + 14)}">${escapeHtml(cut(lane.label, 38))}${title([lane.label, lane.sublabel].filter((s) => s))}</text>`,
  ];
  if (lane.sublabel)
    parts.push(`<text class="sublabel" x="8" y="${n(top + 28)}">${escapeHtml(cut(lane.sublabel, 42))}</text>`);
  for (const s of lane.segments) {
    const r = segmentRect(s, { y: top }, scale, rowHeight);
    parts.push(
      `<g class="seg"><rect class="t-${s.tone}" x="${n(r.x)}" y="${n(r.y)}" width="${n(r.width)}" height="${n(r.height)}" rx="2"/>`,
    );
    const text = cut(s.label, fits(r.width));
    if (text)
      parts.push(`<text class="seglabel" x="${n(r.x + 3)}" y="${n(r.y + r.height - 4)}">${escapeHtml(text)}</text>`);
    parts.push(`${title(s.detail)}</g>`);
  }
  if (lane.progress.length > 0) {
    const points = lane.progress.map((p) => `${n(scale.x(p.atMs))},${n(progressY(p.fraction, { y: top, height }))}`);
    parts.push(`<polyline class="progress" points="${points.join(' ')}"/>`);
  }
  for (const m of lane.markers) {
    const x = scale.x(m.atMs);
    parts.push(
      `<g class="marker"><path class="t-${m.tone}" d="M${n(x)} ${n(top + 2)} l4 5 l-4 5 l-4 -5 z"/><line class="t-${m.tone}" x1="${n(x)}" x2="${n(x)}" y1="${n(top + 12)}" y2="${n(top + height - 2)}"/>${title(m.detail)}</g>`,
    );
  }
  parts.push('</g>');
  return parts.join('');
}

/** The SVG of a timeline; `name` is its accessible name. */
export function timelineSvg(timeline: Timeline, name: string, options: LayoutOptions = DEFAULT_LAYOUT): string {
  const layout = layoutTimeline(timeline, options);
  const parts: string[] = [
    `<svg id="timeline" xmlns="http://www.w3.org/2000/svg" width="${n(layout.width)}" height="${n(layout.height)}" viewBox="0 0 ${n(layout.width)} ${n(layout.height)}" role="img" aria-label="${escapeHtml(`Timeline of ${name}`)}">`,
  ];
  layout.lanes.forEach((p, i) => parts.push(laneSvg(p.lane, p.y, p.height, layout, i)));
  for (const g of layout.groups)
    parts.push(
      `<rect class="group" x="0" y="${n(g.y)}" width="${n(layout.width)}" height="${n(options.groupHeading)}"/><text class="grouplabel" x="8" y="${n(g.y + 15)}">${escapeHtml(g.group)}</text>`,
    );
  for (const t of layout.ticks)
    parts.push(
      `<g class="tick"><line x1="${n(t.x)}" x2="${n(t.x)}" y1="${n(options.axisHeight - 6)}" y2="${n(layout.height - 8)}"/><text x="${n(t.x)}" y="${n(options.axisHeight - 12)}">${escapeHtml(t.label)}</text>${title([formatInstant(t.ms)])}</g>`,
    );
  if (timeline.runEndMs < timeline.endMs) {
    // The axis runs on to show a window that began during the run: what lies after the run is shaded.
    const x = layout.scale.x(timeline.runEndMs);
    parts.push(
      `<rect class="afterrun" x="${n(x)}" y="${n(options.axisHeight - 6)}" width="${n(layout.scale.x(timeline.endMs) - x)}" height="${n(layout.height - options.axisHeight - 2)}"/>`,
      `<text class="afterlabel" x="${n(x + 4)}" y="${n(options.axisHeight - 24)}">${escapeHtml(`run ended ${formatElapsed(timeline.runEndMs - timeline.originMs)}`)}</text>`,
    );
  }
  parts.push(
    `<text class="axislabel" x="8" y="${n(options.axisHeight - 12)}">virtual time since the start</text>`,
    '</svg>',
  );
  return parts.join('\n');
}

/** The legend: the tones the picture uses, named. */
function legend(used: ReadonlySet<Tone>): string {
  const items = (Object.entries(TONES) as Array<[Tone, { fill: string; legend?: string }]>)
    .filter(([tone, t]) => t.legend && used.has(tone))
    .map(([tone, t]) => `<span><i class="t-${tone}"></i>${escapeHtml(t.legend ?? '')}</span>`);
  return `<p class="legend">${items.join(' ')}</p>`;
}

/** The operator's states as a table, for reading and searching what the lanes shorten. */
function operatorTable(report: UpgradeReport): string {
  if (report.operatorStates.length === 0) return '';
  const rows = report.operatorStates.map(
    (s) =>
      `<tr><td>${escapeHtml(formatElapsed(s.elapsedMs))}</td><td>${escapeHtml(s.at)}</td><td>${escapeHtml(s.phase)}</td><td>${escapeHtml(s.step)}</td><td>${escapeHtml(s.waitingReason ? `${s.waitingReason}: ${s.waiting}` : s.message)}</td></tr>`,
  );
  return `<details><summary>Operator states (${report.operatorStates.length})</summary><table><thead><tr><th>elapsed</th><th>time</th><th>phase</th><th>step</th><th>wait or message</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
}

const STYLE = `
body{font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:16px;color:#1d2329;background:#fff}
h1{font-size:18px;margin:0 0 4px}
.meta{margin:0 0 6px;color:#4a5560}
.ok{color:#1b5e20;font-weight:600}.notok{color:#b71c1c;font-weight:600}
.legend span{display:inline-block;margin:0 12px 4px 0;white-space:nowrap}
.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-2px;border-radius:2px}
svg{display:block;font:11px sans-serif}
.band{fill:#fff}.band.odd{fill:#f6f8fa}
.group{fill:#e8edf2}.grouplabel{font-weight:700;font-size:12px;fill:#263238}
.label{font-weight:600;fill:#263238}.sublabel{fill:#6b7780;font-size:10px}
.seglabel{fill:#1d2329;pointer-events:none}
.tick line{stroke:#cfd8dc;stroke-dasharray:2 3;pointer-events:none}.tick text{text-anchor:middle;fill:#546e7a}
.axislabel{fill:#546e7a}
.afterrun{fill:#37474f;opacity:.08;pointer-events:none}.afterlabel{fill:#37474f;font-weight:600}
.progress{fill:none;stroke:#5d4037;stroke-width:1.5}
.marker line{stroke-width:1;opacity:.6}
.seg:hover rect,.marker:hover path{stroke:#000;stroke-width:1}
#hover{position:fixed;display:none;max-width:560px;padding:6px 8px;background:#263238;color:#fff;font:12px/1.35 ui-monospace,monospace;white-space:pre-wrap;border-radius:4px;pointer-events:none;z-index:2}
table{border-collapse:collapse;margin-top:6px}td,th{border:1px solid #dde3e8;padding:2px 6px;text-align:left;vertical-align:top}
`;

/** The hover box: shows the `<title>` of what the pointer is over, at the pointer. */
const SCRIPT = `
(function(){var box=document.getElementById('hover');var svg=document.getElementById('timeline');
svg.addEventListener('mousemove',function(e){var el=e.target;while(el&&el!==svg&&!(el.querySelector&&el.querySelector(':scope>title')))el=el.parentNode;
if(!el||el===svg){box.style.display='none';return;}box.textContent=el.querySelector(':scope>title').textContent;box.style.display='block';
var x=e.clientX+14,y=e.clientY+14;if(x+box.offsetWidth>innerWidth)x=Math.max(0,e.clientX-box.offsetWidth-14);if(y+box.offsetHeight>innerHeight)y=Math.max(0,e.clientY-box.offsetHeight-14);
box.style.left=x+'px';box.style.top=y+'px';});svg.addEventListener('mouseleave',function(){box.style.display='none';});})();
`;

/** The whole page. Pure: the same report gives the same bytes. */
export function upgradePage(report: UpgradeReport, options: LayoutOptions = DEFAULT_LAYOUT): string {
  const timeline = timelineOf(report);
  const used = new Set<Tone>(
    timeline.lanes.flatMap((l) => [...l.segments.map((s) => s.tone), ...l.markers.map((m) => m.tone)]),
  );
  const heading = `${report.scenario || 'simulation'}${report.seed !== null ? ` (seed ${report.seed})` : ''}`;
  const verdict =
    report.ok === null
      ? ''
      : report.ok
        ? '<span class="ok">as expected</span>: '
        : '<span class="notok">FAILED</span>: ';
  const css = (Object.entries(TONES) as Array<[Tone, { fill: string }]>)
    .map(([tone, t]) => `.t-${tone}{fill:${t.fill};stroke:${t.fill};background:${t.fill}}`)
    .join('');
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    // Nothing but this page: no network, no other file.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(`Upgrade timeline: ${heading}`)}</title>`,
    `<style>${STYLE}${css}</style></head><body>`,
    `<h1>${escapeHtml(`Upgrade timeline: ${heading}`)}</h1>`,
    `<p class="meta">${verdict}${escapeHtml(report.summary)}</p>`,
    `<p class="meta">${escapeHtml(`${formatInstant(report.originMs)} → ${formatInstant(report.endMs)} (virtual time, UTC; ${formatElapsed(report.endMs - report.originMs)}). Hover over a bar or a mark for its exact times and messages.`)}</p>`,
    legend(used),
    timelineSvg(timeline, heading, options),
    operatorTable(report),
    '<div id="hover"></div>',
    `<script>${SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
