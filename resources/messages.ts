/**
 * Message keys used by validation and error codes, with their English text.
 * The admin's i18n files translate the same keys; the API uses this text for `message`.
 */
export const MESSAGES: Record<string, string> = {
  error_email_required: 'Please enter an email',
  error_email_invalid: 'Please enter a valid email',
  error_password_too_short: 'Invalid password, please use 12 characters.',
  error_login_password_too_short: 'The password is too short',
  error_passwords_do_not_match: 'Passwords do not match',
  error_required: 'This field is required',
  error_name_required: 'Please enter a name',
  error_title_required: 'Please enter a title',
  error_role_invalid: 'Please select a valid role',
  error_uuid_invalid: 'Not a valid identifier',
  error_url_invalid: 'Please enter a valid URL',
  error_domain_invalid: 'Please enter a valid e-mail domain, like example.com',
  error_too_long: 'This value is too long',
  error_invalid_value: 'This value is not valid',
  error_token_invalid: 'Invalid token',
  error_user_already_exists: 'A user with the same email address already exists',
  error_member_already_exists: 'A member with the same email address already exists',
};

export function messageFor(key: string): string {
  return MESSAGES[key] ?? key;
}
