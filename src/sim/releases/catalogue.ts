/**
 * The release catalogue: which OpenShift releases exist, their pull specs and errata, which
 * channels each belongs to and from when, the `previous` lists of their release-metadata, and the
 * blocked edges (risks) of cincinnati-graph-data
 * (docs/design/cluster-model.md#channels-and-blocked-edges). Data plus pure functions; the update
 * service (updateservice/graph.ts) turns it into Cincinnati graphs and the payload model
 * (payload.ts) into release images. Scenarios extend or override it through {@link buildCatalogue}.
 */
import { createHash } from 'node:crypto';
import semver from 'semver';
import { DEFAULT_BLOCKED_EDGES, DEFAULT_MINORS, PINNED_ERRATA } from './catalogue-data.js';
import { compileAnchoredGoRegexp, type GoRegexp } from '../../lib/go-regexp.js';

/** A rule that decides whether a risk applies (graph-data `matchingRules`). */
export type MatchingRule = { type: 'Always' } | { type: 'PromQL'; promql: { promql: string } };

/** A named update risk, as served in `conditionalEdges[].risks`. */
export interface Risk {
  url: string;
  name: string;
  message: string;
  matchingRules: MatchingRule[];
}

/** graph-data `blocked-edges/<to>-<name>.yaml`: `from` is a regex over source versions (whole match). */
export interface BlockedEdge {
  to: string;
  from: string;
  name: string;
  url: string;
  message: string;
  /** With rules the edge becomes conditional; without, it is removed. */
  matchingRules?: MatchingRule[];
}

/** One minor's z-stream. */
export interface MinorStream {
  /** y of 4.y. */
  minor: number;
  /** GA date of 4.y.0 (YYYY-MM-DD, UTC). */
  gaDate: string;
  /** Highest z released. */
  lastPatch: number;
  /** z numbers that were never released. */
  skip?: number[];
  /** Lowest 4.(y-1).z that may update to 4.y (late z-streams only). */
  minorFloor?: number;
}

export type ChannelKind = 'candidate' | 'fast' | 'stable' | 'eus';

/** A release of the catalogue. Times are milliseconds since the epoch. */
export interface Release {
  version: string;
  /** y of 4.y.z. */
  minor: number;
  patch: number;
  /** `sha256:<64 hex>`; sha256 of the version string unless overridden. */
  digest: string;
  /** `<registryHost>/openshift-release-dev/ocp-release@<digest>`. */
  pullSpec: string;
  /** Errata URL (release-metadata `metadata.url`, graph node `metadata.url`). */
  url: string;
  /** Enters candidate channels. */
  candidateAt: number;
  /** Errata shipped: enters fast channels. */
  fastAt: number;
  /** Enters stable and eus channels (48 h after fast). */
  stableAt: number;
  /** release-metadata `previous`, ascending. */
  previous: string[];
  /** Every channel the release is ever in, sorted. */
  channels: string[];
}

/** The catalogue: releases ascending by version, channel names, blocked edges. */
export interface Catalogue {
  releases: readonly Release[];
  channels: readonly string[];
  blockedEdges: readonly BlockedEdge[];
  /** Architectures the catalogue serves payloads for. */
  architectures: readonly string[];
  registryHost: string;
  /** First instant each channel has content (its channel file exists). */
  channelOpensAt: Readonly<Record<string, number>>;
  byVersion: ReadonlyMap<string, Release>;
}

/** Per-release adjustments (or additions: a version not generated from the streams). */
export interface ReleaseOverride {
  version: string;
  /** Drop the release from the catalogue. */
  remove?: boolean;
  digest?: string;
  url?: string;
  /** ISO time or epoch ms. Setting fastAt moves the default candidate and stable times with it. */
  candidateAt?: string | number;
  fastAt?: string | number;
  stableAt?: string | number;
  /** Replace the computed `previous` list. */
  previous?: string[];
  /** Replace the computed channel list. */
  channels?: string[];
}

/** What a scenario may change; everything is optional. */
export interface CatalogueOverrides {
  minors?: readonly MinorStream[];
  releases?: readonly ReleaseOverride[];
  /** Appended to the defaults, or replacing them with `replaceBlockedEdges`. */
  blockedEdges?: readonly BlockedEdge[];
  replaceBlockedEdges?: boolean;
  /** Default `quay.io`. */
  registryHost?: string;
  architectures?: readonly string[];
}

export const RELEASE_REPOSITORY = 'openshift-release-dev/ocp-release';
const DAY = 86_400_000;
/** Candidate builds appear a few days before the errata ships. */
const CANDIDATE_LEAD = 3 * DAY;
/** Stable follows fast after 48 h (ART's promotion rule). */
const STABLE_DELAY = 2 * DAY;
/** Stable/EUS channels of a new minor open some weeks after its GA (illustrative). */
const STABLE_CHANNEL_OPENS_AFTER_GA = 28 * DAY;
/** Candidate channels of a minor open with its release candidates. */
const CANDIDATE_CHANNEL_OPENS_BEFORE_GA = 42 * DAY;

/** `sha256:<hex>` of a string. */
export function sha256Digest(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The release image digest of a version: sha256 of the version string. */
export function releaseDigest(version: string): string {
  return sha256Digest(version);
}

/** The release image pull spec by digest. */
export function releasePullSpec(digest: string, registryHost = 'quay.io'): string {
  return `${registryHost}/${RELEASE_REPOSITORY}@${digest}`;
}

/** Days after 4.y.0 at which 4.y.z ships: weekly up to z=30, then every other week. */
function daysAfterGa(patch: number): number {
  return patch <= 30 ? patch * 7 : 30 * 7 + (patch - 30) * 14;
}

function toMs(text: string | number): number {
  return typeof text === 'number' ? text : new Date(text).getTime();
}

/** A deterministic, date-ordered errata URL (RHSA for about a third of the releases). */
function errataUrl(version: string, shippedAt: number): string {
  const pinned = PINNED_ERRATA[version];
  if (pinned) return pinned;
  const date = new Date(shippedAt);
  const year = date.getUTCFullYear();
  const dayOfYear = Math.floor((shippedAt - Date.UTC(year, 0, 1)) / DAY) + 1;
  const h = createHash('sha256').update(version).digest();
  const number = dayOfYear * 15 + (h[0]! % 15);
  const kind = h[1]! % 3 === 0 ? 'RHSA' : 'RHBA';
  return `https://access.redhat.com/errata/${kind}-${year}:${String(number).padStart(4, '0')}`;
}

/** The channel names for a set of minors: candidate/fast/stable per minor, eus for even minors. */
export function channelNames(minors: readonly number[]): string[] {
  const out: string[] = [];
  for (const y of minors) {
    out.push(`candidate-4.${y}`, `fast-4.${y}`, `stable-4.${y}`);
    if (y % 2 === 0) out.push(`eus-4.${y}`);
  }
  return out.sort();
}

/**
 * The channels a 4.y.z release belongs to: the candidate/fast/stable channels of 4.y and 4.(y+1),
 * and eus-4.e for every even e in y..y+2 (eus-4.16 carries 4.14, 4.15 and 4.16), limited to the
 * channels that exist.
 */
export function channelsForMinor(minor: number, known: readonly string[]): string[] {
  const want = new Set<string>();
  for (const y of [minor, minor + 1]) for (const k of ['candidate', 'fast', 'stable']) want.add(`${k}-4.${y}`);
  for (let e = minor; e <= minor + 2; e++) if (e % 2 === 0) want.add(`eus-4.${e}`);
  return known.filter((c) => want.has(c)).sort();
}

/** Splits `stable-4.15` into its kind and minor; undefined when it is not a channel of ours. */
export function parseChannel(channel: string): { kind: ChannelKind; minor: number } | undefined {
  const m = /^(candidate|fast|stable|eus)-4\.(\d+)$/.exec(channel);
  if (!m) return undefined;
  return { kind: m[1] as ChannelKind, minor: Number(m[2]) };
}

/** Builds the catalogue: the defaults, changed by the overrides. */
export function buildCatalogue(overrides: CatalogueOverrides = {}): Catalogue {
  const minors = [...(overrides.minors ?? DEFAULT_MINORS)].sort((a, b) => a.minor - b.minor);
  const registryHost = overrides.registryHost ?? 'quay.io';
  const channels = channelNames(minors.map((m) => m.minor));
  const gaOf = new Map(minors.map((m) => [m.minor, Date.parse(`${m.gaDate}T00:00:00Z`)]));
  const floorOf = new Map(minors.map((m) => [m.minor, m.minorFloor ?? 0]));

  interface Draft {
    version: string;
    minor: number;
    patch: number;
    fastAt: number;
    candidateAt?: number;
    stableAt?: number;
    digest?: string;
    url?: string;
    previous?: string[];
    channels?: string[];
  }
  const drafts = new Map<string, Draft>();
  for (const m of minors) {
    const ga = gaOf.get(m.minor)!;
    const skip = new Set(m.skip ?? []);
    for (let z = 0; z <= m.lastPatch; z++) {
      if (skip.has(z)) continue;
      const version = `4.${m.minor}.${z}`;
      drafts.set(version, { version, minor: m.minor, patch: z, fastAt: ga + daysAfterGa(z) * DAY });
    }
  }
  for (const o of overrides.releases ?? []) {
    if (o.remove) {
      drafts.delete(o.version);
      continue;
    }
    const parsed = semver.parse(o.version);
    if (!parsed || parsed.major !== 4)
      throw new Error(`release version must be 4.y.z, got ${JSON.stringify(o.version)}`);
    const d: Draft = drafts.get(o.version) ?? {
      version: o.version,
      minor: parsed.minor,
      patch: parsed.patch,
      fastAt: (gaOf.get(parsed.minor) ?? 0) + daysAfterGa(parsed.patch) * DAY,
    };
    if (o.fastAt !== undefined) d.fastAt = toMs(o.fastAt);
    if (o.candidateAt !== undefined) d.candidateAt = toMs(o.candidateAt);
    if (o.stableAt !== undefined) d.stableAt = toMs(o.stableAt);
    if (o.digest !== undefined) d.digest = o.digest;
    if (o.url !== undefined) d.url = o.url;
    if (o.previous !== undefined) d.previous = [...o.previous];
    if (o.channels !== undefined) d.channels = [...o.channels];
    drafts.set(o.version, d);
  }

  const sorted = [...drafts.values()].sort((a, b) => semver.compare(a.version, b.version));
  const releases: Release[] = sorted.map((draft) => {
    const digest = draft.digest ?? releaseDigest(draft.version);
    const previous = draft.previous ?? sorted.filter((s) => isDefaultPrevious(s, draft, floorOf)).map((s) => s.version);
    return {
      version: draft.version,
      minor: draft.minor,
      patch: draft.patch,
      digest,
      pullSpec: releasePullSpec(digest, registryHost),
      url: draft.url ?? errataUrl(draft.version, draft.fastAt),
      candidateAt: draft.candidateAt ?? draft.fastAt - CANDIDATE_LEAD,
      fastAt: draft.fastAt,
      stableAt: draft.stableAt ?? draft.fastAt + STABLE_DELAY,
      previous: previous.sort(semver.compare),
      channels: draft.channels ?? channelsForMinor(draft.minor, channels),
    };
  });

  const channelOpensAt: Record<string, number> = {};
  for (const c of channels) {
    const p = parseChannel(c)!;
    const ga = gaOf.get(p.minor) ?? 0;
    channelOpensAt[c] =
      p.kind === 'candidate'
        ? ga - CANDIDATE_CHANNEL_OPENS_BEFORE_GA
        : p.kind === 'fast'
          ? ga
          : ga + STABLE_CHANNEL_OPENS_AFTER_GA;
  }

  const blockedEdges = overrides.replaceBlockedEdges
    ? [...(overrides.blockedEdges ?? [])]
    : [...DEFAULT_BLOCKED_EDGES, ...(overrides.blockedEdges ?? [])];
  for (const b of blockedEdges) fromPattern(b.from); // throws early on a bad regex

  return {
    releases,
    channels,
    blockedEdges,
    architectures: overrides.architectures ?? ['amd64'],
    registryHost,
    channelOpensAt,
    byVersion: new Map(releases.map((r) => [r.version, r])),
  };
}

/**
 * The default `previous` rule: every earlier z of the same minor, and from the previous minor
 * every z at or above the floor that shipped no later than the target (a target must carry the
 * source's fixes).
 */
function isDefaultPrevious(
  source: { minor: number; patch: number; fastAt: number },
  target: { minor: number; patch: number; fastAt: number },
  floorOf: ReadonlyMap<number, number>,
): boolean {
  if (source.minor === target.minor) return source.patch < target.patch;
  if (source.minor !== target.minor - 1) return false;
  return source.patch >= (floorOf.get(target.minor) ?? 0) && source.fastAt <= target.fastAt;
}

/** Looks a release up by version. */
export function findRelease(catalogue: Catalogue, version: string): Release | undefined {
  return catalogue.byVersion.get(version);
}

/** Looks a release up by its digest (`sha256:…`). */
export function findReleaseByDigest(catalogue: Catalogue, digest: string): Release | undefined {
  return catalogue.releases.find((r) => r.digest === digest);
}

/** When a release enters a channel of the given kind. */
function enteredAt(release: Release, kind: ChannelKind): number {
  if (kind === 'candidate') return release.candidateAt;
  if (kind === 'fast') return release.fastAt;
  return release.stableAt;
}

/**
 * Whether a release is in a channel at a time (epoch ms; undefined: at the end of time, i.e.
 * every promotion done). A release is in a channel once the channel lists it, the channel has
 * opened, and the release has been promoted to the channel's kind.
 */
export function inChannel(catalogue: Catalogue, release: Release, channel: string, at?: number): boolean {
  if (!release.channels.includes(channel)) return false;
  if (at === undefined) return true;
  const parsed = parseChannel(channel);
  const opens = catalogue.channelOpensAt[channel] ?? Number.NEGATIVE_INFINITY;
  const promoted = parsed ? enteredAt(release, parsed.kind) : release.fastAt;
  return at >= opens && at >= promoted;
}

/** The versions of a channel at a time, ascending. */
export function channelVersions(catalogue: Catalogue, channel: string, at?: number): string[] {
  return catalogue.releases.filter((r) => inChannel(catalogue, r, channel, at)).map((r) => r.version);
}

/** The channels a release is in at a time, sorted (graph node metadata). */
export function releaseChannelsAt(catalogue: Catalogue, release: Release, at?: number): string[] {
  return release.channels.filter((c) => inChannel(catalogue, release, c, at));
}

/** A blocked edge's `from`, matched against the whole source version. */
function fromPattern(from: string): GoRegexp {
  const compiled = compileAnchoredGoRegexp(from);
  if (!compiled.ok) throw new Error(`blocked edge from ${JSON.stringify(from)}: ${compiled.error}`);
  return compiled.regexp;
}

/** The blocked-edge entries that apply to one edge. */
export function blockedEdgesFor(catalogue: Catalogue, from: string, to: string): BlockedEdge[] {
  return catalogue.blockedEdges.filter((b) => b.to === to && fromPattern(b.from).test(from));
}

/** A blocked edge's risk as served (rules required). */
export function riskOf(edge: BlockedEdge & { matchingRules: MatchingRule[] }): Risk {
  return { url: edge.url, name: edge.name, message: edge.message, matchingRules: edge.matchingRules };
}
