import { useNotify, useRedirect, type HttpError } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { savedToast } from '../layout/Toast';
import { formFields, titleOf, type FormMode } from './rules';

/**
 * What a generated create or edit does after the server answered: saved → the "saved" toast and back to the list (a
 * singleton stays; a create may go on to the new record's edit page); refused → the field errors under their inputs
 * (react-admin sets them from body.errors), and the API's text as a toast unless a field on screen already says what
 * is wrong.
 */
export function useSaveHandlers(decl: ResourceDeclaration, mode: FormMode, options: { stay?: boolean; redirectTo?: 'list' | 'edit' } = {}) {
  const notify = useNotify();
  const redirect = useRedirect();
  const shown = new Set(formFields(decl, mode).map(([f]) => f));
  return {
    onSuccess: (data: Record<string, unknown>) => {
      notify(savedToast(titleOf(decl, data)), { type: 'success' });
      if (options.stay) return;
      if (options.redirectTo === 'edit' && data?.id !== undefined) redirect('edit', decl.name, data.id as string);
      else redirect('list', decl.name);
    },
    onError: (error: unknown) => {
      const fields = ((error as HttpError | undefined)?.body as { errors?: Record<string, string> } | undefined)?.errors ?? {};
      if (Object.keys(fields).some((f) => shown.has(f))) return;
      notify((error as Error)?.message || 'ra.notification.http_error', { type: 'error' });
    },
  };
}
