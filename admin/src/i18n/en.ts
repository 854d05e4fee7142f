/**
 * English texts of the admin. Flat `error_*`, `message_*` and `user_import_*` keys are the spec's message keys
 * (shared with resources/messages.ts and the API's error codes); `ls.*` are screen texts; `resources.*` follow the
 * react-admin convention for resource and field names. i18next format: {{var}} interpolation, _one/_other plurals.
 */
import { ENTRY_MESSAGES } from '../../../resources/messages';

const en = {
  // resources/messages.ts: the one English catalogue of message keys (also the API's `message` texts); the account
  // console's keys come with the console's texts (i18n/console/en.ts)
  ...ENTRY_MESSAGES,
  // where the admin says more than the API's sentence
  error_password_too_short: 'Invalid password, please use {{min}} characters.',
  error_user_already_exists: 'The email address already exists',
  error_user_already_exists_description: 'A user with the same email address already exists. Use another address or edit that user.',

  // API error codes (error_{code})
  error_invalid_credentials: 'The email and password combination does not match',
  error_user_not_verified: 'User account not yet activated',
  error_user_disabled: 'This user account has been disabled',
  error_invalid_login_info: 'Failed to validate login info',
  error_too_many_attempts: 'Too many login attempts, please wait a few minutes and try again',
  error_login_failed: 'Cannot login, unhandled error',
  error_unknown_login: 'Unknown email and password combination',
  error_not_logged_in: 'Please log in',
  error_csrf_invalid: 'The security token expired; please try again',
  error_database_unavailable: 'The service is briefly unavailable; please try again in a moment',
  error_body_too_deep: 'The request is nested too deeply',
  error_forbidden_key: 'The request contains a field name that is not allowed',
  error_invalid_encoding: 'The request could not be unpacked',
  error_invalid_multipart: 'The upload was incomplete or malformed; please try again',
  error_unsupported_media_type: 'The request uses a character set that is not supported',
  error_unsupported_encoding: 'The request uses a compression that is not supported',
  error_request_aborted: 'The request was cut off; please try again',
  error_invalid_content_length: 'The request was cut off; please try again',
  error_unexpected_file_field: 'The upload has a file in the wrong place',
  error_guest_token_invalid: 'The page has expired, please reload it and try again',
  error_invalid_token: 'This link is invalid or has expired',
  error_already_verified: 'This e-mail address is already verified',
  error_not_found: 'Not found',
  error_validation_failed: 'Please check the highlighted fields',
  error_conflict: 'A record with the same value already exists',
  error_reference_conflict: 'The record refers to, or is referred to by, another record',
  error_cannot_delete_self: 'You cannot delete your own user',
  error_invalid_json: 'The request could not be read',
  error_payload_too_large: 'The request is too large',
  error_file_too_large: 'The file is too large',
  error_invalid_file_type: 'Please choose a .csv file',
  error_invalid_query: 'The list request was not understood',
  error_invalid_range: 'The list request was not understood',
  error_invalid_sort: 'This column cannot be sorted',
  error_invalid_filter: 'This filter is not supported',
  error_unknown_error: 'An unknown error occured.',
  error_http_error: 'Something went wrong',
  error_network: 'The server could not be reached. Check your connection and try again.',
  error_generic: 'Something went wrong',
  error_no_accounts: 'Your profile is not linked to an account',

  // Media library and account logos (resources/files.ts STORAGE_MESSAGES, API codes, spec 8 upload texts)
  error_upload_storage_failed: 'Failed to upload the asset to the storage server (check server log)',
  error_upload_failed: 'Failed to upload the asset (check server log)',
  error_filename_invalid: 'The file name must be a single name without / or \\',
  error_file_content_mismatch: 'The contents of the file do not match its type',
  error_file_empty: 'The file is empty',
  error_file_already_exists: 'This file has already been uploaded',
  error_folder_not_found: 'The folder does not exist (any more)',
  error_folder_not_empty: 'Only an empty folder can be deleted: move or delete its folders and files first',
  error_folder_move_cycle: 'A folder cannot be moved into itself or one of its subfolders',
  error_signature_expired: 'The upload link has expired; please upload the file again',
  error_signature_invalid: 'The upload link is not valid',
  error_logo_not_uploaded: 'Upload the logo first',
  error_logo_type: 'The logo must be a PNG, JPEG, GIF or WebP image',

  // CSV import (spec 8): one title and description per createuserscsv_* code, and the success pair
  user_import_success_title: 'Users imported',
  user_import_success_description_one: '{{count}} row imported: {{created}} new users, {{memberships}} account memberships.',
  user_import_success_description_other: '{{count}} rows imported: {{created}} new users, {{memberships}} account memberships.',
  user_import_error_unknown_account: 'Unknown account',
  user_import_error_unknown_account_description: 'Row {{row}}: {{first_name}} {{last_name}} ({{email}}) names an account that does not exist.',
  user_import_error_invalid_email: 'Invalid email',
  user_import_error_invalid_email_description: 'Row {{row}}: {{first_name}} {{last_name}} has an invalid e-mail address "{{email}}".',
  user_import_error_user_exists: 'User already exists',
  user_import_error_user_exists_description: 'Row {{row}}: {{first_name}} {{last_name}} ({{email}}) already has a user.',
  user_import_error_duplicate_user: 'Duplicate in the file',
  user_import_error_duplicate_user_description: 'Row {{row}}: {{first_name}} {{last_name}} ({{email}}) appears more than once in the file.',
  user_import_error_invalid_role: 'Unknown role',
  user_import_error_invalid_role_description: 'Row {{row}}: {{first_name}} {{last_name}} ({{email}}) has a role that does not exist.',
  user_import_error_row_description: 'Row {{row}}: {{first_name}} {{last_name}} ({{email}})',
  user_import_failed_title: 'Nothing was imported',

  // Lists: import rows (POST /lists/{id}/import) and the codes of a move or import

  message_no_admin_access: 'No access',
  message_no_admin_access_description: 'You have no access to the admin.',
  message_saved: 'Saved',
  message_saved_description: '{{name}} has been saved.',
  message_deleted: 'Deleted',

  ls: {
    app: { title: 'Leadstage', tagline: 'Events and lead capture' },
    common: {
      copy: 'Copy',
      copied: 'Copied',
      loading: 'Loading…',
      back_to_start: 'Back to start',
      back_to_login: 'Back to sign in',
      reload: 'Reload the page',
      cancel: 'Cancel',
      close: 'Close',
      language: 'Language',
      theme_light: 'Light theme',
      theme_dark: 'Dark theme',
      yes: 'Yes',
      no: 'No',
    },
    locale: { en: 'English', nl: 'Nederlands' },
    roles: { root: 'Root', superadmin: 'Superadmin', admin: 'Admin', member: 'Member' },
    login: {
      title: 'Sign in',
      subtitle: 'Sign in to the Leadstage admin',
      email: 'E-mail',
      password: 'Password',
      submit: 'Sign in',
      submitting: 'Signing in…',
      forgot: 'Forgot your password?',
      resend: 'Resend activation link',
      resend_sent: 'If this address belongs to an account that is not yet activated, a new activation link is on its way.',
      no_account: 'No account yet?',
      create_account: 'Create an account',
    },
    signup: { title: 'Create an account' },
    forgot: {
      title: 'Forgot password',
      text: 'Enter your e-mail address and we will send you a link to choose a new password.',
      submit: 'Send link',
      sent: 'If an account exists for this address, a link to reset the password is on its way. Check your inbox.',
    },
    logout: { busy: 'Signing out…' },
    verify: {
      title: 'Confirm your e-mail',
      verifying: 'Verifying your e-mail address…',
      success_title: 'E-mail confirmed',
      success: 'Thank you for confirming your email. You are all set.',
      support: 'Questions? Contact our support team:',
      privacy: 'Privacy policy',
      already_title: 'Already confirmed',
      already: 'This e-mail address was already confirmed. You can sign in.',
      failed_title: 'Confirmation failed',
      failed: 'This link is invalid or has expired. Sign in to request a new activation link.',
    },
    reset: {
      title: 'Choose a new password',
      password: 'New password',
      password_confirm: 'Confirm the new password',
      hint: 'At least {{min}} characters.',
      submit: 'Save the password',
      submitting: 'Saving…',
      success_title: 'Password changed',
      success: 'Your password has been changed. You can sign in with it now.',
      failed_title: 'The password was not changed',
      no_token: 'This page needs the link from the e-mail. Request a new one from the sign-in page.',
      expired: 'This link is invalid or has expired. Request a new one from the sign-in page.',
    },
    // the invitation page's other words: admin/src/public/inviteTexts.ts (loaded with that page)
    invite: {
      title: 'Invitation',
    },
    error_page: {
      title: 'Unexpected Application Error!',
      text: 'Something went wrong while showing this page.',
      not_found_title: 'Page not found',
      not_found: 'Either you typed a wrong address, or you followed a bad link.',
    },
    // the form renderer's words (admin/src/renderer/texts.ts; {name} is filled in by the renderer)
  },
};

export default en;
export type Messages = typeof en;
