import { useCanAccess } from 'react-admin';

/**
 * react-admin's actions as the permission bits of a resource's group (read 1, create 2, update 4, delete 8). `edit`
 * opens a record: with update, or with delete only (to delete it). The console's authProvider answers canAccess with
 * these; generated screens ask through react-admin's useCanAccess, so a test gives them any bits it likes.
 */
export function permissionsFor(action: string): string[] {
  switch (action) {
    case 'list':
    case 'show':
    case 'read':
    case 'export':
      return ['read'];
    case 'edit':
      return ['update', 'delete'];
    default:
      return [action];
  }
}

/** The caller's bits on the current resource (pending: answers false until known). */
export function useResourceAccess(resource?: string) {
  const read = useCanAccess({ resource, action: 'list' });
  const create = useCanAccess({ resource, action: 'create' });
  const update = useCanAccess({ resource, action: 'update' });
  const remove = useCanAccess({ resource, action: 'delete' });
  return {
    isPending: read.isPending || create.isPending || update.isPending || remove.isPending,
    canRead: !!read.canAccess,
    canCreate: !!create.canAccess,
    canUpdate: !!update.canAccess,
    canDelete: !!remove.canAccess,
  };
}
