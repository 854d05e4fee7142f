import { describe, expect, it } from 'vitest';
import { curlCommand, listQuery, shellQuote } from '../../admin/src/providers/curl';

/** "Copy as cURL" (platform-and-flows.md 2): the command a shell runs as the console's request. */
describe('curl command', () => {
  it('quotes a word for the shell: a single quote closes, is escaped, and reopens', () => {
    expect(shellQuote('plain')).toBe("'plain'");
    expect(shellQuote("O'Brien")).toBe(`'O'\\''Brien'`);
    expect(shellQuote("''")).toBe(`''\\'''\\'''`);
    expect(shellQuote('$HOME `x` "y"')).toBe(`'$HOME \`x\` "y"'`); // nothing expands inside single quotes
  });

  it('encodes each list parameter as JSON, URL-encoded, in the order filter, sort, range, lang; empty ones left out', () => {
    expect(listQuery({})).toBe('');
    expect(listQuery({ filter: {} })).toBe('');
    const q = listQuery({ filter: { q: 'a&b=c #1', ld_is_valid: true }, sort: ['ld_email', 'DESC'], range: [25, 49], lang: 'nl' });
    expect(q).toBe(
      `?filter=${encodeURIComponent('{"q":"a&b=c #1","ld_is_valid":true}')}&sort=${encodeURIComponent('["ld_email","DESC"]')}&range=${encodeURIComponent('[25,49]')}&lang=nl`,
    );
    expect(q).not.toMatch(/[ #"[\]{}]/);
    const params = new URLSearchParams(q.slice(1));
    expect(JSON.parse(params.get('filter')!)).toEqual({ q: 'a&b=c #1', ld_is_valid: true });
    expect(JSON.parse(params.get('range')!)).toEqual([25, 49]);
  });

  it('sends the token from $LEADSTAGE_TOKEN in double quotes (the shell fills it in) and the address in single quotes', () => {
    const url = `https://leadstage.example.com/api/1/accounts/a/leads${listQuery({ filter: { q: "it's" } })}`;
    const cmd = curlCommand(url);
    expect(cmd).toBe(`curl -H "Authorization: Bearer $LEADSTAGE_TOKEN" 'https://leadstage.example.com/api/1/accounts/a/leads?filter=%7B%22q%22%3A%22it'\\''s%22%7D'`);
  });
});
