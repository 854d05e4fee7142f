import { CACHE, openDatabase, run } from './idb';
import type { AppEvents, EventGraph, SessionUser } from './api';

/**
 * What the app keeps to work offline, in IndexedDB (the service worker never caches API answers): the signed-in user,
 * the event picker's answer and each event's graph (its forms in order with their list trees), so a lead can be
 * captured with no network. Written whenever the network answers; read when it does not.
 */
let dbPromise: Promise<IDBDatabase> | null = null;
const db = () => (dbPromise ??= openDatabase());

async function read<T>(key: string): Promise<T | undefined> {
  try {
    return await run(await db(), CACHE, 'readonly', (s) => s.get(key) as IDBRequest<T | undefined>);
  } catch {
    return undefined;
  }
}

async function write(key: string, value: unknown): Promise<void> {
  try {
    await run(await db(), CACHE, 'readwrite', (s) => s.put(value, key));
  } catch {
    // private mode without IndexedDB: the app still works online
  }
}

async function remove(key: string): Promise<void> {
  try {
    await run(await db(), CACHE, 'readwrite', (s) => s.delete(key));
  } catch {
    /* nothing stored */
  }
}

export const cachedUser = () => read<SessionUser>('user');
export const cacheUser = (user: SessionUser | null) => (user ? write('user', user) : remove('user'));

export const cachedEvents = (userId: string) => read<AppEvents>(`events:${userId}`);
export const cacheEvents = (userId: string, events: AppEvents) => write(`events:${userId}`, events);

export const cachedGraph = (eventId: string) => read<EventGraph>(`graph:${eventId}`);
export const cacheGraph = (eventId: string, graph: EventGraph) => write(`graph:${eventId}`, graph);
