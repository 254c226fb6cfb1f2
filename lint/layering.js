// @ts-check
/**
 * The layering of src/ (docs/architecture.md) as an ESLint rule, so that an editor marks the
 * offending import line and `npm test` (through `npm run lint`) fails on it.
 *
 * Written here instead of taken from eslint-plugin-import-x's `no-restricted-paths`: that rule
 * needs a TypeScript resolver (a native-binary dependency) to map our `.js` specifiers to `.ts`
 * sources, and passes in silence any import it cannot resolve. Every import between our own
 * files is relative, so resolving one is `path.resolve`, and the whole policy is the table below.
 */
import { dirname, relative, resolve, sep } from 'node:path';

/**
 * What each top-level folder of src/ may import besides itself. It is a directed acyclic graph:
 * folders on the same level of the diagram may import each other in one direction only (kube →
 * api, integrations → kube), so no cycle can form between folders.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const MAY_IMPORT = {
  lib: [],
  time: ['lib'],
  api: ['lib', 'time'],
  kube: ['lib', 'time', 'api'],
  integrations: ['lib', 'time', 'api', 'kube'],
  // The shared core: the step engine and what both flows read of a cluster.
  engine: ['lib', 'time', 'api', 'kube', 'integrations'],
  // The two flows: each on the engine and the infrastructure, never on each other.
  managed: ['lib', 'time', 'api', 'kube', 'integrations', 'engine'],
  scheduled: ['lib', 'time', 'api', 'kube', 'integrations', 'engine'],
  // The only place that wires things together; the simulated cluster included.
  cli: ['lib', 'time', 'api', 'kube', 'integrations', 'engine', 'managed', 'scheduled', 'apiserver', 'sim'],
  // Separate trees no operator code imports: the embedded API server and the simulated cluster
  // (an API client like any other, never the operator's domain).
  apiserver: ['lib', 'time', 'api'],
  sim: ['lib', 'time', 'api', 'kube', 'integrations'],
  // src/main.ts: the entry point.
  '': ['cli'],
};

/** The two flows: no file of one, tests included, imports the other. */
export const FLOWS = ['managed', 'scheduled'];

/** Test files and test support (never shipped) may import across layers, but not across flows. */
export function isTestFile(/** @type {string} */ file) {
  return /\.test(-support)?\.ts$/.test(file);
}

/**
 * Pure: why a file of folder `from` may not import a file of folder `to` (top-level folders of
 * src/, '' for src/ itself), or undefined when it may.
 * @param {string} from
 * @param {string} to
 * @param {boolean} test whether the importing file is a test or test support
 * @returns {string | undefined}
 */
export function layeringViolation(from, to, test) {
  if (from === to) return undefined;
  if (FLOWS.includes(from) && FLOWS.includes(to))
    return `the ${from} flow must not import the ${to} flow: move what both need to engine/`;
  if (test) return undefined;
  const allowed = MAY_IMPORT[from];
  if (allowed === undefined) return `src/${from}/ is not a known folder: add it to lint/layering.js`;
  if (MAY_IMPORT[to] === undefined) return `src/${to}/ is not a known folder: add it to lint/layering.js`;
  if (allowed.includes(to)) return undefined;
  if (to === 'apiserver' || to === 'sim')
    return `operator code must not import ${to}/: it reaches a cluster only through its APIs`;
  return `${from || 'src'}/ may import only ${allowed.join(', ') || 'itself'}, not ${to}/`;
}

/** The top-level folder of `file` under `srcDir` ('' for a file directly in it), or undefined outside it. */
function folderOf(/** @type {string} */ srcDir, /** @type {string} */ file) {
  const rel = relative(srcDir, file);
  if (rel.startsWith('..') || rel === '') return undefined;
  const cut = rel.indexOf(sep);
  return cut < 0 ? '' : rel.slice(0, cut);
}

/** @type {import('eslint').Rule.RuleModule} */
export const layeringRule = {
  meta: {
    type: 'problem',
    docs: { description: 'imports between the folders of src/ follow docs/architecture.md' },
    schema: [
      { type: 'object', properties: { src: { type: 'string' } }, required: ['src'], additionalProperties: false },
    ],
    messages: { layering: '{{why}} (import of {{spec}})' },
  },
  create(context) {
    const options = /** @type {{ src: string }} */ (context.options[0]);
    const file = context.physicalFilename;
    const from = folderOf(options.src, file);
    if (from === undefined) return {};
    const test = isTestFile(file);
    /** @param {import('estree').Node | null | undefined} source */
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.'))
        return;
      const to = folderOf(options.src, resolve(dirname(file), source.value));
      const why =
        to === undefined
          ? test
            ? undefined
            : 'shipped code imports only from src/'
          : layeringViolation(from, to, test);
      if (why) context.report({ node: source, messageId: 'layering', data: { why, spec: source.value } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

/** The plugin eslint.config.js registers as `local`. */
export default { rules: { layering: layeringRule } };
