import { createContext, lazy, Suspense, useContext, useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';
import { Admin, CustomRoutes, Resource, defaultDarkTheme, defaultLightTheme, localStorageStore, type I18nProvider, type Store } from 'react-admin';
import { createBrowserRouter, Route, RouterProvider, useRouteError } from 'react-router';
import { deepmerge } from '@mui/utils';
import BusinessIcon from '@mui/icons-material/Business';
import PeopleIcon from '@mui/icons-material/People';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { addReactAdminTexts, i18nReady } from './i18n';
import { darkThemeOptions, lightThemeOptions } from './theme';
import { AppLayout } from './layout/AppLayout';
import { AccessDeniedPage, NotFoundPage } from './layout/Pages';
import { DelayedProgress } from './layout/DelayedProgress';
import { RequireAccess } from './layout/RequireAccess';
import { ErrorScreen } from './layout/ErrorScreen';
import { locationChanged, publicRoute } from './navigation';

/* One chunk per screen (spec: code-split per route). */
const AccountSelection = lazy(() => import('./accounts/AccountSelection'));
const AccountList = lazy(() => import('./accounts/AccountList').then((m) => ({ default: m.AccountList })));
const AccountCreate = lazy(() => import('./accounts/AccountCreate'));
const AccountEdit = lazy(() => import('./accounts/AccountEdit'));
const AccountUserCreate = lazy(() => import('./accountUsers/AccountUserCreate'));
const AccountUserEdit = lazy(() => import('./accountUsers/AccountUserEdit'));
const UserList = lazy(() => import('./users/UserList').then((m) => ({ default: m.UserList })));
const UserCreate = lazy(() => import('./users/UserCreate'));
const UserEdit = lazy(() => import('./users/UserEdit'));
const EmailPreview = lazy(() => import('./emails/EmailPreview'));
const MediaPage = lazy(() => import('./media/MediaPage'));
const ConsoleRoutes = lazy(() => import('./console/ConsoleRoutes'));
const ProfilePage = lazy(() => import('./profile/ProfilePage'));
const JobsPage = lazy(() => import('./jobs/JobsPage'));

function screen(Component: ComponentType) {
  return (
    <Suspense fallback={<DelayedProgress />}>
      <Component />
    </Suspense>
  );
}

// Form toolbars: a quiet divider instead of react-admin's grey band (opaque: on phones the bar is fixed at the bottom).
const toolbar = (paper: string) => ({
  components: { RaToolbar: { styleOverrides: { root: { backgroundColor: paper, borderTop: '1px solid rgba(127,127,127,0.2)' } } } },
});
const lightTheme = deepmerge(deepmerge(defaultLightTheme, lightThemeOptions), toolbar('#ffffff'));
const darkTheme = deepmerge(deepmerge(defaultDarkTheme, darkThemeOptions), toolbar('#171e2e'));

// react-admin empties its store on logout; the language and the theme are the person's, so they stay.
const baseStore = localStorageStore();
const store: Store = {
  ...baseStore,
  reset() {
    const keep = ['locale', 'theme'].map((key) => [key, baseStore.getItem(key)] as const);
    baseStore.reset();
    for (const [key, value] of keep) if (value !== undefined) baseStore.setItem(key, value);
  },
};

let router: ReturnType<typeof createBrowserRouter> | undefined;

/** One router for the page's lifetime (it follows the address bar even while a public page is shown). */
function adminRouter() {
  router ??= createBrowserRouter([{ path: '*', element: <EntryAdmin />, errorElement: <RouteErrorElement /> }]);
  return router;
}

function RouteErrorElement() {
  return <ErrorScreen error={useRouteError()} />;
}

/**
 * The entry admin: react-admin inside a react-router data router (basename '', so /accounts, /users/new… are the
 * exact paths of spec 2; the data router also gives unsaved-changes blocking and the error fallback). When the admin
 * moves to a public page (/login after a logout or an expired session), the entry takes over (navigation.ts).
 */
export default function AdminApp() {
  const [i18nProvider, setI18nProvider] = useState<I18nProvider | undefined>();
  const router = adminRouter();
  useEffect(() => {
    // The public pages moved the address without this router seeing it: catch up before rendering.
    const here = window.location.pathname + window.location.search;
    if (router.state.location.pathname + router.state.location.search !== here) void router.navigate(here, { replace: true });
    let alive = true;
    Promise.all([i18nReady(), addReactAdminTexts()]).then(([provider]) => alive && setI18nProvider(provider));
    const unsubscribe = router.subscribe((state) => {
      if (publicRoute(state.location.pathname)) locationChanged();
    });
    return () => {
      alive = false;
      unsubscribe();
    };
  }, [router]);
  const location = useSyncExternalStore(
    (cb) => router.subscribe(cb),
    () => router.state.location.pathname + router.state.location.search,
  );
  if (!i18nProvider || location !== window.location.pathname + window.location.search) return <DelayedProgress />;
  return (
    <I18nProviderContext.Provider value={i18nProvider}>
      <RouterProvider router={router} />
    </I18nProviderContext.Provider>
  );
}

const I18nProviderContext = createContext<I18nProvider | undefined>(undefined);

function EntryAdmin() {
  const i18nProvider = useContext(I18nProviderContext)!;
  return (
    <Admin
      // The app lives at the root: '' is react-admin's root basename ('/' would make it navigate to '//access-denied').
      basename=""
      title="Leadstage"
      dataProvider={dataProvider}
      authProvider={authProvider}
      store={store}
      i18nProvider={i18nProvider}
      theme={lightTheme}
      darkTheme={darkTheme}
      layout={AppLayout}
      loginPage={false}
      requireAuth
      catchAll={NotFoundPage}
      accessDenied={AccessDeniedPage}
      loading={() => <DelayedProgress />}
      disableTelemetry
    >
      <CustomRoutes noLayout>
        <Route path="/accounts/selection" element={screen(AccountSelection)} />
      </CustomRoutes>
      <CustomRoutes>
        <Route
          path="/media"
          element={
            <RequireAccess resource="media" action="list">
              {screen(MediaPage)}
            </RequireAccess>
          }
        />
        <Route path="/profile" element={screen(ProfilePage)} />
        {/* The job queue's counts: root users (the menu shows it to them; the API answers 403 to anyone else). */}
        <Route path="/jobs" element={screen(JobsPage)} />
        {/* The account console (account-console.md 1): its own routes, basename and menu, in this same react-admin. */}
        <Route path="/console/:accountId/*" element={screen(ConsoleRoutes)} />
        <Route
          path="/emails/:template/:userid"
          element={
            <RequireAccess resource="emails" action="read">
              {screen(EmailPreview)}
            </RequireAccess>
          }
        />
      </CustomRoutes>
      <Resource name="accounts" list={screen(AccountList)} edit={screen(AccountEdit)} hasCreate icon={BusinessIcon} recordRepresentation="a_name">
        <Route path="new" element={screen(AccountCreate)} />
        <Route path=":id/users/new" element={screen(AccountUserCreate)} />
        <Route path=":id/users/:userid" element={screen(AccountUserEdit)} />
      </Resource>
      <Resource name="users" list={screen(UserList)} edit={screen(UserEdit)} hasCreate icon={PeopleIcon} recordRepresentation="u_email">
        <Route path="new" element={screen(UserCreate)} />
      </Resource>
      <Resource name="accountUsers" recordRepresentation="u_email" />
      <Resource name="unlinkedUsers" recordRepresentation="u_email" />
    </Admin>
  );
}
