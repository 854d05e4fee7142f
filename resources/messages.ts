import { CONSOLE_MESSAGES } from './consoleMessages.js';

export { CONSOLE_MESSAGES };

/**
 * Message keys used by validation and error codes, with their English text.
 * The admin's i18n files translate the same keys; the API uses this text for `message`.
 */
/** The media library's keys (resources/files.ts, resources/folders.ts). */
export const STORAGE_MESSAGES = {
  error_title_required: 'Please enter a title',
  error_title_invalid: 'The title contains characters that are not allowed',
  error_filename_required: 'The file needs a name',
  error_filename_invalid: 'The file name must be a single name without / or \\',
  error_file_type_not_allowed: 'This type of file is not allowed',
  error_file_type_mismatch: 'The file type does not match the file name',
  error_file_type_invalid: 'Not a valid file type',
  error_path_invalid: 'Not a storage path given by the server',
  error_ids_required: 'Give at least one file id',
  error_ids_duplicate: 'The same file id appears twice',
  error_too_many: 'Too many items at once',
  error_destination_invalid: 'Give a folder id, or root',
  error_folder_not_found: 'The folder does not exist',
  error_upload_not_found: 'No upload for this file was signed, or it was not completed',
  error_upload_mismatch: 'This does not match the signed upload',
} satisfies Record<string, string>;

/**
 * Members, invites and mail templates of the account console (account-console.md section 3; spec 8's invite texts).
 * In the entry catalogue because the public invitation page shows them.
 */
export const INVITE_MESSAGES = {
  error_role_above_own: 'You cannot grant a role above your own',
  error_invite_already_exists: 'An invite with the same email address already exists',
  error_invite_failed: 'Failed to create invite',
  error_invite_invalid: 'Failed to validate the invite',
  error_invite_closed: 'This invite has already been accepted or revoked',
  error_invite_other_user: 'This invite is for another e-mail address; sign in with that address to accept it',
  error_mail_failed: 'The e-mail could not be sent',
  error_set_role_forbidden: 'You may not set member roles',
  error_member_above_own: 'You cannot change a member whose role is above your own',
  error_members_join_by_invite: 'Members join through invites; only a root user adds an existing user',
} satisfies Record<string, string>;

/** Personal API tokens (platform-and-flows.md section 2): the profile page's dialog and the Bearer calls. */
export const API_TOKEN_MESSAGES = {
  error_expiry_invalid: 'Please enter a valid date and time',
  error_expiry_past: 'The expiry must be in the future',
  error_expiry_too_far: 'A token lives at most one year',
  error_token_not_allowed: 'An API token works only on the routes of its account (/api/1/accounts/{account}/…)',
  error_too_many_requests: 'Too many requests, please wait a moment and try again',
} satisfies Record<string, string>;

/** The sign-in pages' and the entry admin's keys. */
export const ENTRY_MESSAGES = {
  ...STORAGE_MESSAGES,
  ...INVITE_MESSAGES,
  ...API_TOKEN_MESSAGES,
  error_email_required: 'Please enter an email',
  error_email_invalid: 'Please enter a valid email',
  error_password_too_short: 'Invalid password, please use 12 characters.',
  error_login_password_too_short: 'The password is too short',
  error_passwords_do_not_match: 'Passwords do not match',
  error_required: 'This field is required',
  error_name_required: 'Please enter a name',
  error_role_invalid: 'Please select a valid role',
  error_uuid_invalid: 'Not a valid identifier',
  error_url_invalid: 'Please enter a valid URL',
  error_domain_invalid: 'Please enter a valid e-mail domain, like example.com',
  error_too_long: 'This value is too long',
  error_invalid_value: 'This value is not valid',
  error_token_invalid: 'Invalid token',
  error_user_already_exists: 'A user with the same email address already exists',
  error_member_already_exists: 'A member with the same email address already exists',
  error_user_not_found: 'This user does not exist (any more)',
  error_forbidden: 'You do not have permission to do this',
  error_cannot_disable_self: 'You cannot disable your own user',
  error_cannot_change_own_role: 'You cannot change your own role',
  error_csv_columns: 'The file needs at least an email column',
  error_csv_empty: 'The file has no rows to import',
} satisfies Record<string, string>;

const merge = <A extends object, B extends object>(a: A, b: B): A & B => ({ ...a, ...b });

/** Every key with its English text: the API's `message` for a key. (Pure: a page that does not use it drops it.) */
export const MESSAGES = /* @__PURE__ */ merge(ENTRY_MESSAGES, CONSOLE_MESSAGES);

export function messageFor(key: string): string {
  return (MESSAGES as Record<string, string>)[key] ?? key;
}
