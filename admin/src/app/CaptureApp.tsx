import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from './Link';
import { ApiRequestError, appEvents, currentUser, eventGraph, signOut as apiSignOut, transport, type AppEvents, type SessionUser } from './api';
import { cacheEvents, cacheGraph, cachedEvents, cachedUser, cacheUser } from './cache';
import { AppContext, pathOf, routeOf, type AppState, type Route, type ThemeChoice } from './context';
import { LeadQueue, QueueSync } from './queue';
import { initialLocale, LOCALE_STORE_KEY, translator, type AppLocale } from './texts';
import { SignIn } from './screens/SignIn';
import { EventPicker } from './screens/EventPicker';
import { Capture } from './screens/Capture';
import { Unsent } from './screens/Unsent';
import { MyLeads } from './screens/MyLeads';
import { LeadPage } from './screens/LeadPage';
import { ProfilePage } from './screens/ProfilePage';
import { Icon } from './Icon';

const THEME_KEY = 'ls.capture.theme';

function storedTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return v === 'light' || v === 'dark' ? v : 'auto';
  } catch {
    return 'auto';
  }
}

function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const up = () => setOnline(true);
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }, []);
  return online;
}

/**
 * The capture app (/app): the session (the admin's cookie), the screens by address, the offline queue and its sync,
 * the picker's events and their forms kept on the device.
 */
export function CaptureApp() {
  const [locale, setLocaleState] = useState<AppLocale>(initialLocale);
  const [theme, setThemeState] = useState<ThemeChoice>(storedTheme);
  const t = useMemo(() => translator(locale), [locale]);
  const online = useOnline();
  const [user, setUser] = useState<SessionUser | null | undefined>(undefined);
  const userRef = useRef<SessionUser | null | undefined>(undefined);
  userRef.current = user;
  const [route, setRoute] = useState<Route>(() => routeOf(location.pathname));
  const [queue, setQueue] = useState<LeadQueue | null>(null);
  const [queueError, setQueueError] = useState(false);
  const [unsent, setUnsent] = useState(0);
  const [events, setEvents] = useState<AppEvents | null>(null);
  const [eventsFrom, setEventsFrom] = useState<'network' | 'cache' | null>(null);
  const [eventsAt, setEventsAt] = useState<number | null>(null);
  const [toastText, setToastText] = useState('');
  const toastTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    document.documentElement.lang = locale;
    try {
      localStorage.setItem(LOCALE_STORE_KEY, JSON.stringify(locale));
    } catch {
      /* no storage */
    }
  }, [locale]);
  useEffect(() => {
    if (theme === 'auto') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
    try {
      localStorage.setItem(THEME_KEY, theme);
    } catch {
      /* no storage */
    }
  }, [theme]);

  // The session: the server's answer when it can give one, else the user last seen on this device (offline start).
  const loadSession = useCallback(async () => {
    try {
      const me = await currentUser();
      setUser(me);
      void cacheUser(me);
    } catch {
      setUser((await cachedUser()) ?? null);
    }
  }, []);
  useEffect(() => {
    void loadSession();
  }, [loadSession]);

  useEffect(() => {
    let q: LeadQueue | null = null;
    LeadQueue.open().then(
      (opened) => {
        q = opened;
        setQueue(opened);
      },
      () => setQueueError(true),
    );
    return () => q?.close();
  }, []);

  const sync = useMemo(
    () =>
      queue
        ? new QueueSync(queue, transport, {
            userId: () => userRef.current?.u_id,
            onResult: (r) => {
              if (r.stopped === 'auth') setUser(null);
            },
          })
        : null,
    [queue],
  );
  useEffect(() => {
    if (!sync || !user) return;
    sync.start();
    return () => sync.stop();
  }, [sync, user]);
  useEffect(() => {
    if (!queue || !user) return;
    const refresh = () => void queue.count(user.u_id).then(setUnsent);
    refresh();
    return queue.subscribe(refresh);
  }, [queue, user]);

  const reloadEvents = useCallback(async () => {
    const me = userRef.current;
    if (!me) return;
    try {
      const fresh = await appEvents();
      setEvents(fresh);
      setEventsFrom('network');
      setEventsAt(Date.now());
      void cacheEvents(me.u_id, { ...fresh, cachedAt: Date.now() } as AppEvents);
      // every active event's forms onto the device, so a lead can be captured offline
      for (const ev of fresh.events)
        eventGraph(ev.a_id, ev.ev_id).then(
          (g) => cacheGraph(ev.ev_id, g),
          () => undefined,
        );
    } catch (e) {
      if (e instanceof ApiRequestError && e.status === 401) {
        setUser(null);
        return;
      }
      const cached = (await cachedEvents(me.u_id)) as (AppEvents & { cachedAt?: number }) | undefined;
      if (cached) {
        setEvents(cached);
        setEventsFrom('cache');
        setEventsAt(cached.cachedAt ?? null);
      } else {
        setEvents(null);
        setEventsFrom(null);
      }
    }
  }, []);
  useEffect(() => {
    if (user) void reloadEvents();
  }, [user, reloadEvents]);
  useEffect(() => {
    if (online && user) {
      void reloadEvents();
      sync?.kick();
    }
  }, [online]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    const onPop = () => setRoute(routeOf(location.pathname));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const navigate = useCallback((to: Route, replace = false) => {
    const path = pathOf(to);
    if (replace) history.replaceState(null, '', path);
    else if (location.pathname !== path) history.pushState(null, '', path);
    setRoute(to);
    window.scrollTo(0, 0);
    // the new screen's heading takes the focus, so a screen reader hears where it is
    requestAnimationFrame(() => document.querySelector<HTMLElement>('main h1, main h2')?.focus());
  }, []);

  const toast = useCallback((message: string) => {
    setToastText(message);
    clearTimeout(toastTimer.current);
    toastTimer.current = setTimeout(() => setToastText(''), 5000);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await apiSignOut();
    } catch {
      /* offline: the cookie ends with the session on the server */
    }
    await cacheUser(null);
    setUser(null);
    setEvents(null);
    navigate({ name: 'events' }, true);
  }, [navigate]);

  if (user === undefined || (!queue && !queueError))
    return (
      <p className="cap-status" role="status">
        {t('loading')}
      </p>
    );

  if (queueError) {
    return (
      <main className="cap-signin" id="main">
        <p className="cap-card cap-error" role="alert">
          {t('storage_unavailable')}
        </p>
      </main>
    );
  }

  if (!user || !queue || !sync) {
    return (
      <SignIn
        t={t}
        online={online}
        onSignedIn={(u) => {
          setUser(u);
          void cacheUser(u);
        }}
      />
    );
  }

  const state: AppState = {
    t,
    locale,
    setLocale: setLocaleState,
    theme,
    setTheme: setThemeState,
    user,
    online,
    queue,
    sync,
    unsent,
    events,
    eventsFrom,
    eventsAt,
    reloadEvents,
    navigate,
    signOut,
    toast,
  };

  return (
    <AppContext.Provider value={state}>
      <div className="cap">
        <a className="cap-skip" href="#main">
          {t('skip')}
        </a>
        <header className="cap-bar">
          <span className="cap-brand">{t('app_name')}</span>
          <span className={`cap-net ${online ? 'cap-net--on' : 'cap-net--off'}`} role="status">
            <Icon name={online ? 'online' : 'offline'} />
            {online ? t('online') : t('offline')}
          </span>
          <Link to={{ name: 'unsent' }} className={`cap-unsent ${unsent ? 'cap-unsent--some' : ''}`} label={unsent ? t('unsent', { count: unsent }) : t('unsent_none')}>
            <Icon name="upload" />
            <span data-testid="unsent-count">{unsent}</span>
          </Link>
        </header>
        <main id="main" className="cap-main">
          <Screen route={route} />
        </main>
        <nav className="cap-nav" aria-label={t('app_name')}>
          <Link to={{ name: 'events' }} className="cap-nav-item">
            <Icon name="event" />
            {t('nav_events')}
          </Link>
          <Link to={{ name: 'leads' }} className="cap-nav-item">
            <Icon name="list" />
            {t('nav_leads')}
          </Link>
          <Link to={{ name: 'profile' }} className="cap-nav-item">
            <Icon name="person" />
            {t('nav_profile')}
          </Link>
        </nav>
        <div className={`cap-toast ${toastText ? 'cap-toast--show' : ''}`} role="status" aria-live="polite">
          {toastText}
        </div>
      </div>
    </AppContext.Provider>
  );
}

function Screen({ route }: { route: Route }) {
  switch (route.name) {
    case 'capture':
      return <Capture key={`${route.accountId}/${route.eventId}`} accountId={route.accountId} eventId={route.eventId} />;
    case 'unsent':
      return <Unsent />;
    case 'leads':
      return <MyLeads />;
    case 'lead':
      return <LeadPage key={route.leadId} accountId={route.accountId} leadId={route.leadId} />;
    case 'profile':
      return <ProfilePage />;
    default:
      return <EventPicker />;
  }
}
