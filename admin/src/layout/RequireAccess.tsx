import type { ReactNode } from 'react';
import { Loading, useCanAccess } from 'react-admin';
import { AccessDeniedPage } from './Pages';

/** Custom routes (media, e-mail previews) are not resources, so they ask canAccess themselves. */
export function RequireAccess({ resource, action, children }: { resource: string; action: string; children: ReactNode }) {
  const { canAccess, isPending } = useCanAccess({ resource, action });
  if (isPending) return <Loading />;
  return canAccess ? <>{children}</> : <AccessDeniedPage />;
}
