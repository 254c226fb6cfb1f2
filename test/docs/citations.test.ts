/**
 * Every document the code cites is in the repository: nothing cites the team's private notes
 * (which a reader of the product cannot open), every `docs/<path>.md[#<anchor>]` cited in code
 * names a file and a heading that exist, and every relative Markdown link in docs/ and README.md
 * (anchors included) resolves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const self = relative(root, fileURLToPath(import.meta.url));

/** Where the product's own text lives. */
const SCANNED = ['src', 'test', 'scripts', 'lint', 'docs', 'scenarios', 'README.md'];
const TEXT_FILE = /\.(?:ts|js|mjs|cjs|md|ya?ml|json|sh)$/;

/** Names of the private notes; any mention of them is a citation a reader cannot follow. */
const PRIVATE_NOTES: readonly RegExp[] = [
  /update-mechanics/,
  // Not the product's own docs/migrating-from-muo.md and docs/migrating-from-appuio.md.
  /(?<![\w-])muo\.md\b/,
  /(?<![\w-])appuio\.md\b/,
  /\bDESIGN\.md\b/,
  /\bts-ecosystem\b/,
  /\bpeers\.md\b/,
  /\breference\/[\w.-]+\.md\b/,
];

function walk(path: string, out: string[]): string[] {
  const full = join(root, path);
  if (!existsSync(full)) return out;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      walk(join(path, name), out);
    }
  } else if (TEXT_FILE.test(path)) {
    out.push(path);
  }
  return out;
}

const files = SCANNED.flatMap((p) => walk(p, []));
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

/** GitHub's anchor of a heading: inline markup dropped, lower case, punctuation removed, spaces to `-`. */
function headingSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (outside code fences), with GitHub's `-1`, `-2` for repeats. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = headingSlug(heading);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(path: string): Set<string> {
  let anchors = anchorCache.get(path);
  if (!anchors) {
    anchors = anchorsOf(read(path));
    anchorCache.set(path, anchors);
  }
  return anchors;
}

/** Why `target` (a repository-relative .md path, optionally with `#anchor`) does not resolve, or undefined. */
function brokenTarget(target: string): string | undefined {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  if (!existsSync(join(root, path)) || !statSync(join(root, path)).isFile()) return `${path} does not exist`;
  if (anchor !== undefined && anchor !== '' && !anchorsOfFile(path).has(anchor))
    return `${path} has no heading #${anchor}`;
  return undefined;
}

test('nothing cites the private notes', () => {
  const found: string[] = [];
  for (const file of files) {
    if (file === self) continue;
    read(file)
      .split('\n')
      .forEach((line, i) => {
        if (PRIVATE_NOTES.some((re) => re.test(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(found, [], `cite docs/ instead:\n${found.join('\n')}`);
  assert.ok(files.length > 100, `scanned ${files.length} files`);
});

test('every docs/<path>.md[#anchor] cited resolves to a file and a heading', () => {
  const broken: string[] = [];
  let cited = 0;
  for (const file of files) {
    if (file === self) continue;
    read(file)
      .split('\n')
      .forEach((line, i) => {
        for (const m of line.matchAll(/(?<![\w./-])(docs\/[\w./-]+?\.md)(#[\w-]+)?/g)) {
          cited++;
          const problem = brokenTarget(`${m[1]}${m[2] ?? ''}`);
          if (problem) broken.push(`${file}:${i + 1}: ${problem}`);
        }
      });
  }
  assert.deepEqual(broken, []);
  assert.ok(cited > 100, `found ${cited} citations`);
});

test('every relative Markdown link in docs/ and README.md resolves, anchors included', () => {
  const broken: string[] = [];
  for (const file of files.filter((f) => f.endsWith('.md') && (f.startsWith('docs/') || f === 'README.md'))) {
    let fenced = false;
    read(file)
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
        if (fenced) return;
        for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
          const href = m[1]!;
          if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // https:, mailto:, …
          const [path, anchor] = href.split('#', 2) as [string, string | undefined];
          const target = path === '' ? file : relative(root, resolve(root, dirname(file), path));
          if (!target.endsWith('.md') && anchor === undefined) {
            if (!existsSync(join(root, target))) broken.push(`${file}:${i + 1}: ${href}: ${target} does not exist`);
            continue;
          }
          const problem = brokenTarget(anchor === undefined ? target : `${target}#${anchor}`);
          if (problem) broken.push(`${file}:${i + 1}: ${href}: ${problem}`);
        }
      });
  }
  assert.deepEqual(broken, []);
});

test('anchors are GitHub’s', () => {
  assert.equal(headingSlug('The CVO’s gate'), 'the-cvos-gate');
  assert.equal(headingSlug('`upgrade-operator run`'), 'upgrade-operator-run');
  assert.equal(headingSlug('Custom (CR-derived) metrics'), 'custom-cr-derived-metrics');
  assert.equal(
    headingSlug('Behaviour 1: workers finish after ClusterVersion completes'),
    'behaviour-1-workers-finish-after-clusterversion-completes',
  );
  assert.deepEqual([...anchorsOf('# A\n```\n# not a heading\n```\n## A\n### B ###\n')], ['a', 'a-1', 'b']);
});
