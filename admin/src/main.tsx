import { lazy, StrictMode, Suspense, useEffect, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { ErrorBoundary } from './layout/ErrorScreen';
import { currentPath, navigate, publicRoute, subscribe } from './navigation';
import { readCookie } from './providers/http';

/**
 * The entry: picks the screen from the address and loads it on demand (one chunk per route). The public pages
 * (sign-in, sign-up, logout, e-mail confirmation, password reset, invitation) are plain MUI; every other path loads the react-admin app
 * (AdminApp), which runs react-router with basename '' so its paths are exactly /accounts, /users/new… (no hash).
 */
const LoginPage = lazy(() => import('./public/LoginPage'));
const LogoutPage = lazy(() => import('./public/LogoutPage'));
const SignupPage = lazy(() => import('./public/SignupPage'));
const VerifyPage = lazy(() => import('./public/VerifyPage'));
const ResetPasswordPage = lazy(() => import('./public/ResetPasswordPage'));
const InvitePage = lazy(() => import('./public/InvitePage'));
const HandoffPage = lazy(() => import('./public/HandoffPage'));
const ConversationPage = lazy(() => import('./public/ConversationPage'));
const MeetingPage = lazy(() => import('./public/MeetingPage'));
const AdminApp = lazy(() => import('./AdminApp'));

/** `/`: the accounts when signed in (the readable is_logged_in cookie, spec 4), else the sign-in page. */
function Home() {
  useEffect(() => navigate(readCookie('is_logged_in') ? '/accounts' : '/login', { replace: true }), []);
  return null;
}

function Screen({ path }: { path: string }) {
  const route = publicRoute(path);
  switch (route?.page) {
    case 'home':
      return <Home />;
    case 'login':
      return <LoginPage />;
    case 'logout':
      return <LogoutPage />;
    case 'signup':
      return <SignupPage />;
    case 'verify':
      return <VerifyPage token={route.token} />;
    case 'resetpassword':
      return <ResetPasswordPage />;
    case 'invite':
      return <InvitePage token={route.token} />;
    case 'handoff':
      return <HandoffPage token={route.token} />;
    case 'conversation':
      return <ConversationPage token={route.token} />;
    case 'meeting':
      return <MeetingPage token={route.token} />;
    default:
      return <AdminApp />;
  }
}

/** Nothing for 100 ms, then a spinner (spec 9); plain CSS from index.html, so it needs no chunk. */
const PageLoading = () => <div className="ls-page-loading" role="progressbar" aria-label="Loading" />;

function Root() {
  const path = useSyncExternalStore(subscribe, currentPath);
  const area = publicRoute(path)?.page ?? 'admin';
  return (
    <ErrorBoundary resetKey={area}>
      <Suspense fallback={<PageLoading />}>
        <Screen path={path} />
      </Suspense>
    </ErrorBoundary>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
