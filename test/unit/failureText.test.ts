import { describe, expect, it } from 'vitest';
import { accountPath, accountUrl } from '../../admin/src/providers/accountPath';
import { apiFailureOf, failureText, type FailureTranslate } from '../../admin/src/providers/failure';
import { ApiRequestError } from '../../admin/src/providers/http';

const catalogue: Record<string, string> = {
  error_network: 'No connection',
  error_generic: 'Something went wrong',
  error_name_taken: 'Name in use',
  error_validation_failed: 'Check the fields',
  error_too_long: 'Too long',
  error_event_closed: 'Closed',
  error_login_failed: 'Cannot login',
  send_failed: 'Could not send',
};

/** The three kinds of translator the admin has: react-admin's (`_` is the default), one answering the key, one answering nothing. */
const withDefault: FailureTranslate = (key, options) => catalogue[key] ?? (options?._ as string | undefined) ?? key;
const answeringKey: FailureTranslate = (key) => catalogue[key] ?? key;
const answeringNothing: FailureTranslate = (key) => catalogue[key];
const translators = { withDefault, answeringKey, answeringNothing };

describe.each(Object.entries(translators))('failureText with a translator %s', (_name, t) => {
  it('no answer (fetch rejected): error_network, or the network key given', () => {
    expect(failureText(new TypeError('Failed to fetch'), t)).toBe('No connection');
    expect(failureText(undefined, t)).toBe('No connection');
    expect(failureText(new TypeError('Failed to fetch'), t, { network: 'send_failed' })).toBe('Could not send');
  });

  it('a code with a translation: error_{code}, not the English message', () => {
    expect(failureText(new ApiRequestError(403, { code: 'event_closed', message: 'Registration is closed' }), t)).toBe('Closed');
  });

  it('a code without a translation: the API message, else the fallback, else error_generic', () => {
    expect(failureText(new ApiRequestError(400, { code: 'odd_code', message: 'The server says no' }), t)).toBe('The server says no');
    expect(failureText(new ApiRequestError(400, { code: 'odd_code' }), t, { fallback: 'error_login_failed' })).toBe('Cannot login');
    expect(failureText(new ApiRequestError(500, { code: '' }), t)).toBe('Something went wrong');
  });

  it('validation_failed: the first field message key, else error_validation_failed', () => {
    expect(failureText(new ApiRequestError(400, { code: 'validation_failed', message: 'x', fields: { fo_title: 'error_too_long' } }), t)).toBe('Too long');
    expect(failureText(new ApiRequestError(400, { code: 'validation_failed', message: 'x' }), t)).toBe('Check the fields');
    // a field key without a text falls back to the code's
    expect(failureText(new ApiRequestError(400, { code: 'validation_failed', message: 'x', fields: { l: 'error_unknown_key' } }), t)).toBe('Check the fields');
  });

  it('409: the field message key the conflict names, else error_{code}, else the API message', () => {
    expect(failureText(new ApiRequestError(409, { code: 'list_item_value_taken', message: 'taken', fields: { li_value: 'error_name_taken' } }), t)).toBe('Name in use');
    expect(failureText(new ApiRequestError(409, { code: 'name_taken', message: 'taken' }), t)).toBe('Name in use');
    expect(failureText(new ApiRequestError(409, { code: 'folder_not_empty', message: 'Only an empty folder can be deleted' }), t)).toBe('Only an empty folder can be deleted');
  });

  it('fields of other failures are not the text (a 400 with fields shows its code)', () => {
    expect(failureText(new ApiRequestError(400, { code: 'event_closed', fields: { ld_email: 'error_too_long' } }), t)).toBe('Closed');
  });

  it('a plain {status, body}, and an error carrying status and code itself (whose own message is not the API’s)', () => {
    expect(failureText({ status: 409, body: { code: 'x', fields: { a: 'error_name_taken' } } }, t)).toBe('Name in use');
    const register = Object.assign(new Error('odd_code'), { status: 400, code: 'odd_code' });
    expect(failureText(register, t, { fallback: 'send_failed' })).toBe('Could not send');
    expect(failureText(Object.assign(new Error('x'), { status: 403, code: 'event_closed' }), t, { fallback: 'send_failed' })).toBe('Closed');
  });
});

describe('apiFailureOf', () => {
  it('reads the answer of each shape, and nothing from an error without a status', () => {
    expect(apiFailureOf(new ApiRequestError(409, { code: 'name_taken', message: 'm', fields: { a: 'k' } }))).toEqual({
      status: 409,
      body: { code: 'name_taken', message: 'm', fields: { a: 'k' } },
    });
    expect(apiFailureOf(Object.assign(new Error('c'), { status: 400, code: 'c', fields: { f: 'k' } }))).toEqual({
      status: 400,
      body: { code: 'c', message: undefined, fields: { f: 'k' } },
    });
    expect(apiFailureOf(new TypeError('Failed to fetch'))).toBeUndefined();
    expect(apiFailureOf('boom')).toBeUndefined();
  });
});

describe('accountPath', () => {
  it('builds /accounts/{id}/… with each part encoded as one segment', () => {
    expect(accountPath('a1')).toBe('/accounts/a1');
    expect(accountPath('a1', 'lists', 'l2', 'tree')).toBe('/accounts/a1/lists/l2/tree');
    expect(accountPath('a/b', 'mail-templates', 'builtin', 'x y?z#')).toBe('/accounts/a%2Fb/mail-templates/builtin/x%20y%3Fz%23');
    expect(accountPath('a1', 'lists', '../users')).toBe('/accounts/a1/lists/..%2Fusers');
  });

  it('accountUrl is the same under /api/1', () => {
    expect(accountUrl('a1', 'leads', 'export.csv')).toBe('/api/1/accounts/a1/leads/export.csv');
  });
});
