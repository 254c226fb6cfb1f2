/**
 * Which names of a CustomResourceDefinition are accepted, as apiextensions-apiserver's naming
 * controller decides: each requested name (plural, singular, short names, kind, list kind) is
 * taken when it equals the name already accepted for this CRD or no CRD of the same group
 * claims it; otherwise the condition NamesAccepted=False says why, with kube's reason and
 * message, and the previously accepted name stays.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../lib/json.js';

/** The NamesAccepted condition the names lead to. */
export interface NamesAcceptedCondition {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** The outcome: status.acceptedNames and the NamesAccepted condition. */
export interface NamingResult {
  acceptedNames: JsonObject;
  condition: NamesAcceptedCondition;
}

/** Names already claimed in the CRD's group: resource names (plural, singular, short) and kinds (kind, listKind). */
export interface ClaimedNames {
  resources: Set<string>;
  kinds: Set<string>;
}

function str(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

function strs(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
}

/** Adds the names of a `CustomResourceDefinitionNames` object to a claim set. */
export function claimNames(claimed: ClaimedNames, names: JsonValue | undefined): void {
  if (!isJsonObject(names)) return;
  for (const n of [str(names.plural), str(names.singular), ...strs(names.shortNames)])
    if (n !== '') claimed.resources.add(n);
  for (const n of [str(names.kind), str(names.listKind)]) if (n !== '') claimed.kinds.add(n);
}

/** equalToAcceptedOrFresh: the error text when a requested name is taken, else undefined. */
function taken(requested: string, accepted: string, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `"${requested}" is already in use`;
}

function sameList(left: string[], right: string[]): boolean {
  return left.length === right.length && left.every((x, i) => x === right[i]);
}

/**
 * Decides the accepted names of a CRD from its requested names (`spec.names`, after defaulting),
 * the names it has accepted so far (`status.acceptedNames`) and what the group claims.
 */
export function calculateAcceptedNames(
  requested: JsonObject,
  accepted: JsonObject,
  claimed: ClaimedNames,
): NamingResult {
  let failure: { reason: string; message: string } | undefined;
  const pick = (key: string, used: Set<string>, reason: string): string => {
    const err = taken(str(requested[key]), str(accepted[key]), used);
    if (err === undefined) return str(requested[key]);
    failure = { reason, message: err };
    return str(accepted[key]);
  };
  const plural = pick('plural', claimed.resources, 'PluralConflict');
  const singular = pick('singular', claimed.resources, 'SingularConflict');
  let shortNames = strs(accepted.shortNames);
  const wanted = strs(requested.shortNames);
  if (!sameList(wanted, shortNames)) {
    const mine = new Set(shortNames);
    const errs = wanted.filter((n) => !mine.has(n)).flatMap((n) => taken(n, '', claimed.resources) ?? []);
    if (errs.length > 0)
      failure = { reason: 'ShortNamesConflict', message: errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]` };
    else shortNames = wanted;
  }
  const kind = pick('kind', claimed.kinds, 'KindConflict');
  const listKind = pick('listKind', claimed.kinds, 'ListKindConflict');
  const categories = strs(requested.categories);
  const acceptedNames: JsonObject = { plural };
  if (singular !== '') acceptedNames.singular = singular;
  if (shortNames.length > 0) acceptedNames.shortNames = shortNames;
  acceptedNames.kind = kind;
  if (listKind !== '') acceptedNames.listKind = listKind;
  if (categories.length > 0) acceptedNames.categories = categories;
  const condition: NamesAcceptedCondition = failure
    ? { status: 'False', ...failure }
    : { status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  return { acceptedNames, condition };
}
