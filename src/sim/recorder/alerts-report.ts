/**
 * The alerting part of a simulation report, pure: the rule evaluator's state changes folded
 * into one entry per alert episode (pending since, fired at, resolved or dropped at), and the
 * Alertmanager's silences as flat records (expired ones included).
 */
import { matchTypeOf, goQuote } from '../monitoring/alertmanager/matchers.js';
import { silenceState, type Silence, type SilenceState } from '../monitoring/alertmanager/silences.js';
import type { AlertTransition } from '../monitoring/rules.js';

/** One episode of one alert: from becoming active until it resolved, was dropped, or the report. */
export interface AlertEpisode {
  alertname: string;
  /** The `severity` label (null without one). */
  severity: string | null;
  /** Every label of the alert (with `alertname`), keys sorted. */
  labels: Record<string, string>;
  /** The state at the end of the run: `pending`, `firing`, `resolved` (fired, then ended) or `dropped` (ended before it fired). */
  state: 'pending' | 'firing' | 'resolved' | 'dropped';
  /** The rule's `for`, in ms. */
  forMs: number;
  /** When the alert became active (RFC 3339). */
  pendingSince: string;
  firedAt: string | null;
  resolvedAt: string | null;
  droppedAt: string | null;
}

/** A silence as the report lists it. */
export interface SilenceRecord {
  id: string;
  /** Matchers in Alertmanager's text form, e.g. `severity=~"warning|critical"`. */
  matchers: string[];
  createdBy: string;
  comment: string;
  startsAt: string;
  endsAt: string;
  updatedAt: string;
  /** The state at the end of the run. */
  state: SilenceState;
}

/** RFC 3339 with milliseconds, UTC. */
export function isoTime(ms: number): string {
  return new Date(Math.floor(ms)).toISOString();
}

function sortedLabels(labels: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The episodes of the alerts in `transitions` (oldest first, as the evaluator logs them), ordered by start, name, labels. */
export function alertEpisodes(transitions: readonly AlertTransition[]): AlertEpisode[] {
  const byKey = new Map<string, AlertEpisode>();
  for (const t of transitions) {
    const labels = sortedLabels(t.labels);
    const key = `${JSON.stringify(labels)}@${t.activeAt}`;
    let e = byKey.get(key);
    if (!e) {
      e = {
        alertname: t.alertname,
        severity: labels['severity'] ?? null,
        labels,
        state: 'pending',
        forMs: t.forMs,
        pendingSince: isoTime(t.activeAt),
        firedAt: null,
        resolvedAt: null,
        droppedAt: null,
      };
      byKey.set(key, e);
    }
    e.state = t.state;
    if (t.state === 'firing') e.firedAt = isoTime(t.at);
    else if (t.state === 'resolved') e.resolvedAt = isoTime(t.at);
    else if (t.state === 'dropped') e.droppedAt = isoTime(t.at);
  }
  return [...byKey.entries()]
    .sort(([ka, a], [kb, b]) =>
      a.pendingSince < b.pendingSince
        ? -1
        : a.pendingSince > b.pendingSince
          ? 1
          : a.alertname < b.alertname
            ? -1
            : a.alertname > b.alertname
              ? 1
              : ka < kb
                ? -1
                : ka > kb
                  ? 1
                  : 0,
    )
    .map(([, e]) => e);
}

/** Alertmanager's text form of a matcher. */
function matcherText(matcher: Silence['matchers'][number]): string {
  return `${matcher.name}${matchTypeOf(matcher)}${goQuote(matcher.value)}`;
}

/** The silences as report records with their state at `now`, ordered by start, then id. */
export function silenceRecords(silences: readonly Silence[], now: number): SilenceRecord[] {
  return [...silences]
    .sort((a, b) => a.startsAt - b.startsAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((s) => ({
      id: s.id,
      matchers: s.matchers.map(matcherText),
      createdBy: s.createdBy,
      comment: s.comment,
      startsAt: isoTime(s.startsAt),
      endsAt: isoTime(s.endsAt),
      updatedAt: isoTime(s.updatedAt),
      state: silenceState(s, now),
    }));
}
