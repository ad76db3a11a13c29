/**
 * Kept runs in this browser's IndexedDB (database "signalr-live-bench", store "runs", keyed by
 * run id). The history's logic is in core/run-history.ts; this is only the storage.
 */
import type { KeptRun } from '../../core/kept-run.ts';
import { MemoryRunDb, type RunDb } from '../../core/run-history.ts';

const DB_NAME = 'signalr-live-bench';
const DB_VERSION = 1;
const STORE = 'runs';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

class IndexedRunDb implements RunDb {
  constructor(private readonly db: IDBDatabase) {}

  #store(mode: IDBTransactionMode): IDBObjectStore {
    return this.db.transaction(STORE, mode).objectStore(STORE);
  }

  /** Resolves when the transaction has committed, not merely when the request succeeded. */
  put(run: KeptRun): Promise<void> {
    return new Promise((resolve, reject) => {
      const tx = this.db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).put(plainCopy(run));
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write aborted'));
    });
  }

  get(id: string): Promise<KeptRun | undefined> {
    return request(this.#store('readonly').get(id) as IDBRequest<KeptRun | undefined>);
  }

  all(): Promise<KeptRun[]> {
    return request(this.#store('readonly').getAll() as IDBRequest<KeptRun[]>);
  }

  delete(id: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const tx = this.db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).delete(id);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB delete failed'));
    });
  }
}

/** Runs come from $state.raw snapshots and plain objects; a structured clone keeps proxies out. */
function plainCopy(run: KeptRun): KeptRun {
  return JSON.parse(JSON.stringify(run)) as KeptRun;
}

export interface OpenedRunDb {
  db: RunDb;
  /** Why runs are kept only until the page closes, or null when IndexedDB works. */
  warning: string | null;
}

/** IndexedDB when the browser allows it; otherwise memory, with the reason for the page to show. */
export async function openRunDb(): Promise<OpenedRunDb> {
  try {
    if (typeof indexedDB === 'undefined') throw new Error('this browser has no IndexedDB');
    const open = indexedDB.open(DB_NAME, DB_VERSION);
    open.onupgradeneeded = () => {
      if (!open.result.objectStoreNames.contains(STORE)) open.result.createObjectStore(STORE, { keyPath: 'id' });
    };
    return { db: new IndexedRunDb(await request(open)), warning: null };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      db: new MemoryRunDb(),
      warning: `Runs cannot be kept in this browser (${reason}); private windows and some privacy settings refuse storage. Runs stay until the page closes: download them as JSON to keep them.`,
    };
  }
}
