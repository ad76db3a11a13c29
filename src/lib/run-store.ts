/**
 * Kept runs in this browser's IndexedDB (database "signalr-live-bench"): store "runs" holds each
 * run's head keyed by id, store "seconds" one row per second keyed by [runId, second]. The
 * history's logic, and how a run splits into head and seconds, are in core/history/history.ts.
 * Records are plain objects (run documents, never Svelte $state proxies, which IndexedDB cannot clone).
 */
import { headOf, joinRun, MemoryRunDb, secondsOf, type KeptRun, type KeptRunHead, type KeptSecond, type RunDb } from '../../core/history/index.ts';
import { PAGE_WORDS } from './words.ts';

const DB_NAME = 'signalr-live-bench';
const DB_VERSION = 1;
const HEADS = 'runs';
const SECONDS = 'seconds';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** Resolves when the transaction has committed, not merely when its requests succeeded. */
function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error(PAGE_WORDS.writeFailed()));
    tx.onabort = () => reject(tx.error ?? new Error(PAGE_WORDS.writeAborted()));
  });
}

/** Every second of one run: keys [id, -Infinity] to [id, Infinity]. */
const secondsOfRun = (id: string) => IDBKeyRange.bound([id, -Infinity], [id, Infinity]);

class IndexedRunDb implements RunDb {
  constructor(private readonly db: IDBDatabase) {}

  put(run: KeptRun, seriesFrom = 0): Promise<void> {
    const tx = this.db.transaction([HEADS, SECONDS], 'readwrite');
    tx.objectStore(HEADS).put(headOf(run));
    const seconds = tx.objectStore(SECONDS);
    for (const row of secondsOf(run, seriesFrom)) seconds.put(row);
    return committed(tx);
  }

  putHead(head: KeptRunHead): Promise<void> {
    const tx = this.db.transaction(HEADS, 'readwrite');
    tx.objectStore(HEADS).put(head);
    return committed(tx);
  }

  async get(id: string): Promise<KeptRun | undefined> {
    const tx = this.db.transaction([HEADS, SECONDS], 'readonly');
    const [head, rows] = await Promise.all([
      request(tx.objectStore(HEADS).get(id) as IDBRequest<KeptRunHead | undefined>),
      request(tx.objectStore(SECONDS).getAll(secondsOfRun(id)) as IDBRequest<KeptSecond[]>),
    ]);
    return head && joinRun(head, rows);
  }

  heads(): Promise<KeptRunHead[]> {
    return request(this.db.transaction(HEADS, 'readonly').objectStore(HEADS).getAll() as IDBRequest<KeptRunHead[]>);
  }

  delete(id: string): Promise<void> {
    const tx = this.db.transaction([HEADS, SECONDS], 'readwrite');
    tx.objectStore(HEADS).delete(id);
    tx.objectStore(SECONDS).delete(secondsOfRun(id));
    return committed(tx);
  }
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
      const db = open.result;
      if (!db.objectStoreNames.contains(HEADS)) db.createObjectStore(HEADS, { keyPath: 'id' });
      if (!db.objectStoreNames.contains(SECONDS)) db.createObjectStore(SECONDS, { keyPath: ['runId', 'second'] });
    };
    return { db: new IndexedRunDb(await request(open)), warning: null };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      db: new MemoryRunDb(),
      warning: PAGE_WORDS.noStorage({ reason }),
    };
  }
}
