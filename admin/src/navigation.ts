/**
 * The entry's own tiny view of the address bar. The public pages (sign-in, logout, e-mail confirmation, password
 * reset) are shown without react-router, so the sign-in page loads neither it nor react-admin; the admin app's
 * router reports its moves here (AdminApp subscribes), so either side can hand over to the other.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function currentPath(): string {
  return window.location.pathname;
}

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

/** Tells the entry that the address changed (after a pushState it did not see). */
export function locationChanged(): void {
  for (const l of listeners) l();
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  locationChanged();
}

/** Props for an anchor that navigates inside the app: a real href (new tab, copy link) and a client-side click. */
export function linkProps(to: string) {
  return {
    href: to,
    onClick: (e: { preventDefault(): void; metaKey?: boolean; ctrlKey?: boolean; shiftKey?: boolean; button?: number }) => {
      if (e.metaKey || e.ctrlKey || e.shiftKey || (e.button ?? 0) !== 0) return;
      e.preventDefault();
      navigate(to);
    },
  };
}

/** The public pages: everything else is the admin app (which sends a visitor without a session to /login). */
export type PublicRoute =
  | { page: 'home' }
  | { page: 'login' }
  | { page: 'signup' }
  | { page: 'logout' }
  | { page: 'verify'; token: string }
  | { page: 'resetpassword' }
  | { page: 'invite'; token: string }
  | { page: 'handoff'; token: string }
  | { page: 'conversation'; token: string }
  | { page: 'meeting'; token: string };

/** A path segment as written (a malformed %-escape is kept as is: the server then calls the link invalid). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function publicRoute(path: string): PublicRoute | undefined {
  const p = path.replace(/\/+$/, '') || '/';
  if (p === '/') return { page: 'home' };
  if (p === '/login') return { page: 'login' };
  if (p === '/signup') return { page: 'signup' };
  if (p === '/logout') return { page: 'logout' };
  if (p === '/users/resetpassword') return { page: 'resetpassword' };
  const verify = /^\/users\/verify\/([^/]+)$/.exec(p);
  if (verify) return { page: 'verify', token: decodeURIComponent(verify[1]) };
  const invite = /^\/invite\/([^/]+)$/.exec(p);
  if (invite) return { page: 'invite', token: safeDecode(invite[1]) };
  const handoff = /^\/handoffs\/([^/]+)$/.exec(p);
  if (handoff) return { page: 'handoff', token: safeDecode(handoff[1]) };
  const conversation = /^\/conversations\/([^/]+)$/.exec(p);
  if (conversation) return { page: 'conversation', token: safeDecode(conversation[1]) };
  const meeting = /^\/meetings\/([^/]+)$/.exec(p);
  if (meeting) return { page: 'meeting', token: safeDecode(meeting[1]) };
  return undefined;
}
