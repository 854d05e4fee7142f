import { describe, expect, it } from 'vitest';
import { normaliseHeader, parseUsersCsv } from '../../api/services/usersImport.js';

describe('CSV header spellings', () => {
  it.each([
    ['email', 'email'],
    ['E-mail', 'email'],
    ['Email Address', 'email'],
    ['u_email', 'email'],
    ['\uFEFFEmail', 'email'],
    ['First name', 'first'],
    ['firstName', 'first'],
    ['GIVEN_NAME', 'first'],
    ['u_first_name', 'first'],
    ['Last Name', 'last'],
    ['surname', 'last'],
    ['u_last_name', 'last'],
    ['Account', 'account'],
    ['account id', 'account'],
    ['Company', 'account'],
    ['a_name', 'account'],
    ['Role', 'role'],
    ['au_role', 'role'],
  ])('%s -> %s', (header, column) => {
    expect(normaliseHeader(header)).toBe(column);
  });

  it('ignores unknown columns', () => {
    expect(normaliseHeader('favourite colour')).toBeUndefined();
  });
});

describe('parseUsersCsv', () => {
  it('reads quoted fields, CRLF, ";" and skips blank lines, numbering rows as in the file', async () => {
    const { rows, missingColumns } = await parseUsersCsv({ text: 'Email;First Name;Notes\r\n"a@x.example";"Ann; the first";x\r\n\r\nb@x.example;Bob;\r\n' });
    expect(missingColumns).toEqual([]);
    expect(rows).toEqual([
      { row: 2, email: 'a@x.example', first: 'Ann; the first', last: '', account: '', role: '' },
      { row: 4, email: 'b@x.example', first: 'Bob', last: '', account: '', role: '' },
    ]);
  });

  it('reports a missing e-mail column', async () => {
    expect((await parseUsersCsv({ text: 'name\nAnn\n' })).missingColumns).toEqual(['email']);
  });
});
