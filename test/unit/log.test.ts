import { describe, expect, it } from 'vitest';
import { safeUrl } from '../../api/log.js';

describe('safeUrl (URLs as logged)', () => {
  it('hides reset-password tokens, upload signatures and e-mail verification tokens, and keeps the rest', () => {
    expect(safeUrl('/users/resetpassword?token=abc123&lang=en')).toBe('/users/resetpassword?token=[redacted]&lang=en');
    expect(safeUrl('/storage/files/2026/11/6f1c1f9e-3b0c-4c4e-9a55-0d7d8c1b2a3f?expires=1&max=2&signature=s1g')).toBe(
      '/storage/files/2026/11/6f1c1f9e-3b0c-4c4e-9a55-0d7d8c1b2a3f?expires=1&max=2&signature=[redacted]',
    );
    expect(safeUrl('/users/verify/tok3n')).toBe('/users/verify/[redacted]');
    expect(safeUrl('/api/1/users/verify/tok3n?x=1')).toBe('/api/1/users/verify/[redacted]?x=1');
    expect(safeUrl('/api/1/users?page=2&q=ann')).toBe('/api/1/users?page=2&q=ann');
    expect(safeUrl('/healthz')).toBe('/healthz');
  });

  it('keeps a query without secrets as the client wrote it, and finds a secret however its name is encoded', () => {
    const list = '/api/1/accounts/a/leads?filter=%7B%7D&range=%5B0%2C24%5D&sort=%5B%22ld_captured_at%22%2C%22DESC%22%5D';
    expect(safeUrl(list)).toBe(list);
    expect(safeUrl('/users/resetpassword?%74oken=abc123&lang=en')).toBe('/users/resetpassword?token=[redacted]&lang=en');
    expect(safeUrl('/x?a=1&signature=s&access_code=c')).toBe('/x?a=1&signature=[redacted]&access_code=[redacted]');
    // names with no value, empty pieces, a name spelt with + or with an encoded character, a secret last or valueless
    expect(safeUrl('/x?a&&b=1&token')).toBe('/x?a=&b=1&token=[redacted]');
    expect(safeUrl('/x?a=%26token%3D1&b=token')).toBe('/x?a=%26token%3D1&b=token');
    expect(safeUrl('/x?a=1&acc%65ss_code=9')).toBe('/x?a=1&access_code=[redacted]');
    expect(safeUrl('/x?my+token=1&signature')).toBe('/x?my+token=1&signature=[redacted]');
    expect(safeUrl('/x?=1&tokens=2&Token=3')).toBe('/x?=1&tokens=2&Token=3');
    expect(safeUrl('/x?')).toBe('/x?');
  });
});
