/**
 * Saves the store to a file and loads it back, so that a simulation can stop and resume with
 * the same objects and a resourceVersion that continues where it stopped. Saves are debounced
 * on the Clock and written atomically (temporary file, then rename).
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { Clock, Timer } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import type { MemoryStore, StoreSnapshot } from './storage/store.js';

const FORMAT = 'upgrade-operator/apiserver-state/v1';

interface StateFile {
  format: string;
  snapshot: StoreSnapshot;
}

/** Reads a state file into the store; false when the file does not exist. */
export async function loadState(store: MemoryStore, file: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  const parsed = JSON.parse(text) as Partial<StateFile>;
  if (parsed.format !== FORMAT || !parsed.snapshot)
    throw new Error(`${file} is not an API server state file (format ${String(parsed.format)})`);
  store.restore(parsed.snapshot);
  return true;
}

/** Writes the store's state to a file atomically. */
export async function saveState(store: MemoryStore, file: string): Promise<void> {
  const body: StateFile = { format: FORMAT, snapshot: store.snapshot() };
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, JSON.stringify(body));
  await rename(tmp, file);
}

export interface PersistenceOptions {
  store: MemoryStore;
  file: string;
  clock: Clock;
  logger: Logger;
  /** Delay between a change and its save (default 1 s). */
  debounceMs?: number;
}

/** Saves the store some time after each change, and once more on flush(). */
export class Persistence {
  readonly #o: PersistenceOptions;
  readonly #unsubscribe: () => void;
  #timer: Timer | undefined;
  #saving: Promise<void> = Promise.resolve();
  #dirty = false;

  constructor(options: PersistenceOptions) {
    this.#o = options;
    this.#unsubscribe = options.store.subscribe(() => this.#changed());
  }

  #changed(): void {
    this.#dirty = true;
    if (this.#timer) return;
    this.#timer = this.#o.clock.setTimer(this.#o.debounceMs ?? 1000, () => {
      this.#timer = undefined;
      void this.#save();
    });
  }

  #save(): Promise<void> {
    if (!this.#dirty) return this.#saving;
    this.#dirty = false;
    this.#saving = this.#saving
      .then(() => saveState(this.#o.store, this.#o.file))
      .catch((err: unknown) => this.#o.logger.error({ err, file: this.#o.file }, 'saving the API server state failed'));
    return this.#saving;
  }

  /** Stops watching for changes and writes the final state. */
  async flush(): Promise<void> {
    this.#unsubscribe();
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#dirty = true;
    await this.#save();
  }
}
