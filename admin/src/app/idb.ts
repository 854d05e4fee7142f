/**
 * The capture app's IndexedDB database, with a few promise helpers (no library: the app's JavaScript stays small).
 *
 *   leads   the offline queue: one record per captured lead (key ld_client_id), photos as Blobs inside it
 *   cache   what the app needs offline: the event picker's answer and each event's graph (key: a string)
 */
export const DB_NAME = 'leadstage-capture';
export const DB_VERSION = 1;
export const LEADS = 'leads';
export const CACHE = 'cache';

export function openDatabase(factory: IDBFactory = indexedDB, name = DB_NAME): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(name, DB_VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(LEADS)) db.createObjectStore(LEADS, { keyPath: 'clientId' }).createIndex('queuedAt', 'queuedAt');
      if (!db.objectStoreNames.contains(CACHE)) db.createObjectStore(CACHE);
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error('The app is open in another tab with an older version; close it and reload.'));
  });
}

export function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
  });
}

export function result<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** One store, one request, in its own transaction. */
export async function run<T>(db: IDBDatabase, store: string, mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const tx = db.transaction(store, mode);
  const value = result(fn(tx.objectStore(store)));
  await done(tx);
  return value;
}
