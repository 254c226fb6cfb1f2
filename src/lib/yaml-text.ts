/**
 * Reading YAML the way the Go tools our users write it for read it, without ever throwing:
 * go-yaml v2 (what sigs.k8s.io/yaml and MUO's config loader use) reads YAML 1.1 and keeps plain
 * dates as strings, and a document that cannot be turned into a value — a syntax error, an alias
 * with no anchor, more aliases than the parser resolves — is reported as text, not thrown.
 */
import type { Document, ParseOptions, DocumentOptions, SchemaOptions } from 'yaml';
import { yamlPackage } from './yaml-runtime.js';

/** YAML 1.1 with the timestamp tag left out: no setting we read is a timestamp. */
export const GO_YAML_V2: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.1',
  customTags: (tags) =>
    tags.filter((tag) => (typeof tag === 'string' ? tag !== 'timestamp' : tag.tag !== 'tag:yaml.org,2002:timestamp')),
};

/** A document's value, or the first line of why it has none. */
export type YamlValue = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/** The value of one parsed document; parse errors and errors of resolving it alike become `error`. */
export function documentValue(doc: Document.Parsed): YamlValue {
  try {
    const first = doc.errors[0];
    if (first !== undefined) throw first;
    return { ok: true, value: doc.toJS() as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: (message.split('\n')[0] ?? message).replace(/:$/, '') };
  }
}

/** The value of a one-document text, read as go-yaml v2 reads it. */
export function readGoYaml(text: string): YamlValue {
  return documentValue(yamlPackage().parseDocument(text, GO_YAML_V2));
}

/** The value of each document of a text (`---`-separated), read as go-yaml v2 reads it. */
export function readGoYamlDocuments(text: string): YamlValue[] {
  const docs = yamlPackage().parseAllDocuments(text, GO_YAML_V2);
  return Array.isArray(docs) ? docs.map(documentValue) : [];
}
