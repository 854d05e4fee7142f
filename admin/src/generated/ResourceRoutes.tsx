import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { ResourceContextProvider, useCanAccess, useParams, useRouterProvider } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { DelayedProgress } from '../layout/DelayedProgress';
import { AccessDeniedPage, NotFoundPage } from '../layout/Pages';

/* Each generated screen is its own chunk. */
const GeneratedList = lazy(() => import('./GeneratedList'));
const GeneratedCreate = lazy(() => import('./GeneratedCreate'));
const GeneratedEdit = lazy(() => import('./GeneratedEdit'));
const TrashList = lazy(() => import('./TrashList'));

/** A resource's screens when they are not the generated ones (hand-written screens compose the same parts). */
export interface ResourceScreens {
  list?: ComponentType<{ decl: ResourceDeclaration }>;
  create?: ComponentType<{ decl: ResourceDeclaration }>;
  edit?: ComponentType<{ decl: ResourceDeclaration }>;
}

/**
 * A screen only for a caller with access (react-admin's action on the resource), else "access denied" in its place.
 * react-admin's own check redirects, but its list and edit controllers send their request as soon as the answer is
 * known, even a refusal: the 403 would show a red toast over the "access denied" page.
 */
export function AccessGate({ resource, action, children }: { resource: string; action: string; children: ReactNode }) {
  const { canAccess, isPending } = useCanAccess({ resource, action });
  if (isPending) return <DelayedProgress />;
  return canAccess ? children : <AccessDeniedPage />;
}

function screen(Component: ComponentType<{ decl: ResourceDeclaration }>, decl: ResourceDeclaration, action: string) {
  return (
    <AccessGate resource={decl.name} action={action}>
      <Suspense fallback={<DelayedProgress />}>
        <Component decl={decl} />
      </Suspense>
    </AccessGate>
  );
}

/**
 * The routes of one resource below the current path, `:resource/*`: the list (''), `new`, `trash` and `:id`, generated from
 * its declaration unless `screens` names a hand-written one, each behind the caller's access to it. An unknown name, or
 * a singleton (it has its own route), is not found.
 */
export function ResourceRoutes({ declarations, screens = {} }: { declarations: readonly ResourceDeclaration[]; screens?: Record<string, ResourceScreens> }) {
  const { Routes, Route } = useRouterProvider();
  const { resource } = useParams();
  const decl = declarations.find((d) => d.name === resource && !d.singleton);
  if (!decl) return <NotFoundPage />;
  const own = screens[decl.name] ?? {};
  return (
    <ResourceContextProvider value={decl.name} key={decl.name}>
      <Routes>
        <Route index element={screen(own.list ?? GeneratedList, decl, 'list')} />
        <Route path="new" element={screen(own.create ?? GeneratedCreate, decl, 'create')} />
        {/* The list's trash (a trash resource's only; platform-and-flows.md 1). */}
        <Route path="trash" element={decl.trash ? screen(TrashList, decl, 'list') : <NotFoundPage />} />
        {/* A record opens for whoever may read it: the edit screen is read-only without the update bit. */}
        <Route path=":id" element={screen(own.edit ?? GeneratedEdit, decl, 'show')} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </ResourceContextProvider>
  );
}
