import type { HttpError } from 'react-admin';
import { Toast } from '../layout/Toast';

/**
 * Spec 8: user_already_exists shows an error toast (error_user_already_exists + its description); the field
 * error under u_email comes from the response's fields. Other errors keep react-admin's usual notification.
 */
export function userSaveErrorNotification(error: unknown): { message: React.ReactNode | string; hasFieldErrors: boolean } {
  const body = (error as HttpError | undefined)?.body as { code?: string; errors?: Record<string, string> } | undefined;
  if (body?.code === 'user_already_exists')
    return { message: <Toast severity="error" title="error_user_already_exists" description="error_user_already_exists_description" />, hasFieldErrors: true };
  return { message: (error as Error)?.message || 'ra.notification.http_error', hasFieldErrors: !!body?.errors && Object.keys(body.errors).length > 0 };
}
