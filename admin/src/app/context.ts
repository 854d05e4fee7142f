import { createContext, useContext } from 'react';
import type { AppEvents, SessionUser } from './api';
import type { LeadQueue, QueueSync } from './queue';
import type { AppLocale, Translate } from './texts';

export type Route =
  | { name: 'events' }
  | { name: 'capture'; accountId: string; eventId: string }
  | { name: 'unsent' }
  | { name: 'leads' }
  | { name: 'lead'; accountId: string; leadId: string }
  | { name: 'profile' };

export const BASE = '/app';

/** The screen of an address under /app (unknown ones: the event picker). */
export function routeOf(pathname: string): Route {
  const parts = pathname
    .replace(/^\/app\/?/, '')
    .split('/')
    .filter(Boolean)
    .map(decodeURIComponent);
  if (parts[0] === 'capture' && parts.length === 3) return { name: 'capture', accountId: parts[1], eventId: parts[2] };
  if (parts[0] === 'unsent' && parts.length === 1) return { name: 'unsent' };
  if (parts[0] === 'leads' && parts.length === 1) return { name: 'leads' };
  if (parts[0] === 'leads' && parts.length === 3) return { name: 'lead', accountId: parts[1], leadId: parts[2] };
  if (parts[0] === 'profile' && parts.length === 1) return { name: 'profile' };
  return { name: 'events' };
}

export function pathOf(route: Route): string {
  const e = encodeURIComponent;
  switch (route.name) {
    case 'capture':
      return `${BASE}/capture/${e(route.accountId)}/${e(route.eventId)}`;
    case 'lead':
      return `${BASE}/leads/${e(route.accountId)}/${e(route.leadId)}`;
    case 'events':
      return `${BASE}/`;
    default:
      return `${BASE}/${route.name}`;
  }
}

export type ThemeChoice = 'auto' | 'light' | 'dark';

export interface AppState {
  t: Translate;
  locale: AppLocale;
  setLocale(l: AppLocale): void;
  theme: ThemeChoice;
  setTheme(t: ThemeChoice): void;
  user: SessionUser;
  online: boolean;
  queue: LeadQueue;
  sync: QueueSync;
  unsent: number;
  /** The picker's answer (from the network or the device), null before the first. */
  events: AppEvents | null;
  eventsFrom: 'network' | 'cache' | null;
  eventsAt: number | null;
  reloadEvents(): Promise<void>;
  navigate(route: Route, replace?: boolean): void;
  signOut(): Promise<void>;
  /** A short message at the bottom of the screen (announced politely). */
  toast(message: string): void;
}

export const AppContext = createContext<AppState | null>(null);

export function useApp(): AppState {
  const state = useContext(AppContext);
  if (!state) throw new Error('useApp outside the capture app');
  return state;
}
