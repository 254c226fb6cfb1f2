/**
 * The informer's cache: objects by `namespace/name` key (client-go's MetaNamespaceKeyFunc),
 * with secondary indexes (client-go's Indexer). `byNamespace` is always present.
 */
import type { KubeObjectLike } from '../api/resource.js';

/** The values an object is indexed under. */
export type IndexFunc<T> = (obj: T) => string[];

export const BY_NAMESPACE = 'byNamespace';

/** `namespace/name`, or `name` for a cluster-scoped object. */
export function objectKey(obj: KubeObjectLike): string {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? '';
  return ns ? `${ns}/${name}` : name;
}

/** Splits a key into namespace ('' for cluster-scoped) and name. */
export function splitKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

/** Objects by key, plus indexes. */
export class Indexer<T extends KubeObjectLike> {
  readonly #items = new Map<string, T>();
  readonly #funcs = new Map<string, IndexFunc<T>>();
  /** index name → value → keys */
  readonly #indexes = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Record<string, IndexFunc<T>> = {}) {
    this.addIndexers({ [BY_NAMESPACE]: (o) => [o.metadata?.namespace ?? ''], ...indexers });
  }

  /** Adds indexes (existing objects are indexed at once). Re-adding a name with another function is an error. */
  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      const existing = this.#funcs.get(name);
      if (existing === fn) continue;
      if (existing) throw new Error(`indexer ${JSON.stringify(name)} already exists`);
      this.#funcs.set(name, fn);
      this.#indexes.set(name, new Map());
      for (const [key, obj] of this.#items) this.#index(name, fn, key, obj);
    }
  }

  get size(): number {
    return this.#items.size;
  }

  get(key: string): T | undefined {
    return this.#items.get(key);
  }

  keys(): string[] {
    return [...this.#items.keys()];
  }

  list(): T[] {
    return [...this.#items.values()];
  }

  /** Inserts or replaces; returns the previous object. */
  set(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.#items.get(key);
    if (old) this.#unindex(key, old);
    this.#items.set(key, obj);
    for (const [name, fn] of this.#funcs) this.#index(name, fn, key, obj);
    return old;
  }

  /** Removes by key; returns the removed object. */
  delete(key: string): T | undefined {
    const old = this.#items.get(key);
    if (!old) return undefined;
    this.#unindex(key, old);
    this.#items.delete(key);
    return old;
  }

  /** Objects whose index `name` contains `value`. */
  byIndex(name: string, value: string): T[] {
    const index = this.#indexes.get(name);
    if (!index) throw new Error(`index ${JSON.stringify(name)} does not exist`);
    const keys = index.get(value);
    if (!keys) return [];
    return [...keys].flatMap((key) => {
      const o = this.#items.get(key);
      return o ? [o] : [];
    });
  }

  #index(name: string, fn: IndexFunc<T>, key: string, obj: T): void {
    const index = this.#indexes.get(name);
    if (!index) return;
    for (const value of new Set(fn(obj))) {
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    }
  }

  #unindex(key: string, obj: T): void {
    for (const [name, fn] of this.#funcs) {
      const index = this.#indexes.get(name);
      if (!index) continue;
      for (const value of new Set(fn(obj))) {
        const keys = index.get(value);
        if (!keys) continue;
        keys.delete(key);
        if (keys.size === 0) index.delete(value);
      }
    }
  }
}
