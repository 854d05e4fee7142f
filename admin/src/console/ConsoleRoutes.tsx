import { lazy, Suspense, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AuthContext, BasenameContextProvider, DataProviderContext, useParams, useRouterProvider } from 'react-admin';
import { ACCOUNT_RESOURCES } from '../../../resources/index';
import { authProvider } from '../providers/authProvider';
import { accountDataProvider } from '../providers/accountDataProvider';
import { canInAccount, roleInAccount } from '../permissions';
import { useSession } from '../layout/useSession';
import { DelayedProgress } from '../layout/DelayedProgress';
import { AccessDeniedPage, NotFoundPage } from '../layout/Pages';
import { AccessGate, ResourceRoutes } from '../generated/ResourceRoutes';
import { canEnterConsole, consoleAuthProvider, consolePath, enterAccount } from './access';
import { ConsoleContext, useConsoleAccount } from './ConsoleContext';
import { NoConsoleAccess } from './NoConsoleAccess';
import { useConsoleTexts } from './texts';
import { CONSOLE_SCREENS } from './screens';

/* Each console screen is its own chunk (the generated list, create and edit are theirs in ResourceRoutes). */
const ConsoleHome = lazy(() => import('./ConsoleHome'));
const ConsoleSettings = lazy(() => import('./ConsoleSettings'));
const TranscriptionQueue = lazy(() => import('../leads/TranscriptionQueue'));
const StatisticsPage = lazy(() => import('../statistics/StatisticsPage'));
const DeveloperPage = lazy(() => import('../developer/DeveloperPage'));

/** A console page that is not a resource: with its group's permission (default read) in this account, else "access denied". */
function PageGate({ group, permission = 'read', children }: { group: string; permission?: string; children: ReactNode }) {
  const { session } = useSession();
  const { accountId } = useConsoleAccount();
  return canInAccount(session, accountId, group, permission) ? children : <AccessDeniedPage />;
}

function screen(Component: ComponentType) {
  return (
    <Suspense fallback={<DelayedProgress />}>
      <Component />
    </Suspense>
  );
}

/**
 * One account's console, below /console/{accountId}: react-admin's basename is the console's (so list, create, edit
 * and redirect paths stay in it), the data provider is the account's (every account resource at
 * /api/1/accounts/{accountId}/<name>), and canAccess answers with the caller's role in this account. Entering another
 * account's console first drops every cached record of the previous one.
 */
function AccountConsole({ accountId, role }: { accountId: string; role: string }) {
  const queryClient = useQueryClient();
  // Before anything of this account renders (the subtree is keyed by account, so this runs once per account).
  useState(() => enterAccount(queryClient, accountId));
  const dataProvider = useMemo(() => accountDataProvider(accountId), [accountId]);
  const auth = useMemo(() => consoleAuthProvider(authProvider, accountId), [accountId]);
  const context = useMemo(() => ({ accountId, role }), [accountId, role]);
  const { Routes, Route } = useRouterProvider();
  return (
    <ConsoleContext.Provider value={context}>
      <BasenameContextProvider basename={consolePath(accountId)}>
        <DataProviderContext.Provider value={dataProvider}>
          <AuthContext.Provider value={auth}>
            <Routes>
              <Route index element={screen(ConsoleHome)} />
              <Route
                path="settings"
                element={
                  <AccessGate resource="settings" action="show">
                    {screen(ConsoleSettings)}
                  </AccessGate>
                }
              />
              <Route path="transcription" element={screen(TranscriptionQueue)} />
              <Route path="statistics" element={<PageGate group="account_statistics">{screen(StatisticsPage)}</PageGate>} />
              <Route
                path="developer"
                element={
                  <PageGate group="app_general" permission="export_curl">
                    {screen(DeveloperPage)}
                  </PageGate>
                }
              />
              <Route path="access-denied" element={<AccessDeniedPage />} />
              <Route path=":resource/*" element={<ResourceRoutes declarations={ACCOUNT_RESOURCES} screens={CONSOLE_SCREENS} />} />
              <Route path="*" element={<NotFoundPage />} />
            </Routes>
          </AuthContext.Provider>
        </DataProviderContext.Provider>
      </BasenameContextProvider>
    </ConsoleContext.Provider>
  );
}

/** /console/{accountId}/*: members of the account (any role) and root users enter; anyone else is told so. */
export default function ConsoleRoutes() {
  const { accountId } = useParams();
  const { session, isPending } = useSession();
  const textsReady = useConsoleTexts();
  if (isPending || !textsReady) return <DelayedProgress />;
  if (!canEnterConsole(session, accountId)) return <NoConsoleAccess />;
  return <AccountConsole key={accountId} accountId={accountId!} role={roleInAccount(session, accountId)!} />;
}
