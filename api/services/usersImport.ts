import fs from 'node:fs';
import { Readable } from 'node:stream';
import Papa from 'papaparse';
import type { Knex } from 'knex';
import { isEmail, isUuid } from '../../resources/fields.js';
import { isRole } from '../../resources/permissions.js';

/** Spec 8: the import's error codes. */
export type ImportErrorCode =
  'createuserscsv_unknown_account' | 'createuserscsv_invalid_email' | 'createuserscsv_user_exists' | 'createuserscsv_duplicate_user' | 'createuserscsv_invalid_role';

export interface ImportRowError {
  row: number;
  code: ImportErrorCode;
  u_first_name: string;
  u_last_name: string;
  u_email: string;
}

export interface ImportResult {
  ok: boolean;
  rows: number;
  created: number;
  memberships: number;
  errors: ImportRowError[];
  missingColumns?: string[];
}

type Column = 'email' | 'first' | 'last' | 'account' | 'role';

/** Common header spellings, compared lower-case without spaces, dashes, dots or underscores. */
const HEADER_ALIASES: Record<string, Column> = {};
for (const [col, names] of Object.entries({
  email: ['email', 'emailaddress', 'mail', 'uemail', 'e-mail', 'emailadres'],
  first: ['firstname', 'first', 'givenname', 'forename', 'ufirstname', 'voornaam'],
  last: ['lastname', 'last', 'surname', 'familyname', 'ulastname', 'achternaam'],
  account: ['account', 'accountname', 'accountid', 'aname', 'aid', 'auaccountid', 'company', 'tenant'],
  role: ['role', 'urole', 'aurole', 'accountrole', 'rol'],
})) {
  for (const n of names) HEADER_ALIASES[n.replace(/[^a-z0-9]/g, '')] = col as Column;
}

export function normaliseHeader(h: string): Column | undefined {
  return HEADER_ALIASES[
    h
      .replace(/^\uFEFF/, '')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
  ];
}

interface ParsedRow {
  row: number;
  email: string;
  first: string;
  last: string;
  account: string;
  role: string;
}

/** Streams the CSV (file path or text): BOM, ',' ';' tab or '|' (detected), quoted fields, blank lines skipped. */
export async function parseUsersCsv(input: { path: string } | { text: string }): Promise<{ rows: ParsedRow[]; missingColumns: string[] }> {
  const source: Readable = 'path' in input ? fs.createReadStream(input.path, 'utf8') : Readable.from([input.text]);
  const rows: ParsedRow[] = [];
  let columns: (Column | undefined)[] | undefined;
  let line = 0;
  await new Promise<void>((resolve, reject) => {
    // Blank lines are skipped here, not by the parser, so row numbers match the lines of the user's file.
    const parser = Papa.parse(Papa.NODE_STREAM_INPUT, { skipEmptyLines: false, delimitersToGuess: [',', ';', '\t', '|'] });
    parser.on('data', (cells: string[]) => {
      line++;
      if (cells.every((c) => String(c ?? '').trim() === '')) return;
      if (!columns) {
        columns = cells.map(normaliseHeader);
        return;
      }
      const r: ParsedRow = { row: line, email: '', first: '', last: '', account: '', role: '' };
      cells.forEach((value, i) => {
        const col = columns![i];
        if (col) r[col] = String(value ?? '').trim();
      });
      rows.push(r);
    });
    parser.on('end', () => resolve());
    parser.on('error', reject);
    source.on('error', reject);
    source.pipe(parser);
  });
  const present = new Set(columns ?? []);
  const missingColumns = (['email'] as Column[]).filter((c) => !present.has(c));
  return { rows, missingColumns };
}

/**
 * All or nothing, set-based: one query to resolve accounts, one to find existing e-mails, then one INSERT … SELECT
 * from unnest() for users and one for memberships, in one transaction. No query and no password hash per row:
 * imported users are pending (no password) until they verify or reset.
 */
export async function importUsers(db: Knex, parsed: { rows: ParsedRow[]; missingColumns: string[] }): Promise<ImportResult> {
  const { rows } = parsed;
  const result: ImportResult = { ok: false, rows: rows.length, created: 0, memberships: 0, errors: [] };
  if (parsed.missingColumns.length) {
    result.missingColumns = parsed.missingColumns;
    return result;
  }

  const accounts = await db('accounts').select('a_id', 'a_name');
  const byId = new Map(accounts.map((a) => [a.a_id.toLowerCase(), a.a_id]));
  const byName = new Map<string, string | null>();
  for (const a of accounts) {
    const key = a.a_name.trim().toLowerCase();
    byName.set(key, byName.has(key) ? null : a.a_id); // a name shared by two accounts is ambiguous
  }

  const emails = rows.map((r) => r.email.toLowerCase()).filter((e) => e !== '');
  const existing = new Set<string>();
  // Chunks keep the bound array sizes moderate on both PostgreSQL and PGlite.
  for (let i = 0; i < emails.length; i += 20000) {
    const found = await db('users')
      .select(db.raw('lower(u_email) as e'))
      .whereRaw('lower(u_email) = any(?::text[])', [emails.slice(i, i + 20000)]);
    for (const f of found) existing.add(f.e);
  }

  const seen = new Set<string>();
  const accountOf: (string | null)[] = [];
  for (const r of rows) {
    const err = (code: ImportErrorCode) => result.errors.push({ row: r.row, code, u_first_name: r.first, u_last_name: r.last, u_email: r.email });
    const email = r.email.toLowerCase();
    let account: string | null = null;
    if (!isEmail(r.email)) err('createuserscsv_invalid_email');
    else if (seen.has(email)) err('createuserscsv_duplicate_user');
    else if (existing.has(email)) err('createuserscsv_user_exists');
    if (r.account) {
      account = (isUuid(r.account) ? byId.get(r.account.toLowerCase()) : byName.get(r.account.toLowerCase())) ?? null;
      if (!account) err('createuserscsv_unknown_account');
    }
    if (r.role && !isRole(r.role.toLowerCase())) err('createuserscsv_invalid_role');
    seen.add(email);
    accountOf.push(account);
  }
  if (result.errors.length || rows.length === 0) return result;

  await db.transaction(async (trx) => {
    const CHUNK = 20000;
    for (let i = 0; i < rows.length; i += CHUNK) {
      const part = rows.slice(i, i + CHUNK);
      const inserted = await trx.raw(
        `insert into users (u_email, u_first_name, u_last_name, u_role, u_is_verified, u_is_enabled)
         select e, f, l, 'member', false, true from unnest(?::text[], ?::text[], ?::text[]) as t(e, f, l)
         returning u_id`,
        [part.map((r) => r.email), part.map((r) => r.first), part.map((r) => r.last)],
      );
      result.created += inserted.rowCount ?? inserted.rows.length;
      const linked = part.map((r, j) => ({ r, account: accountOf[i + j] })).filter((x) => x.account);
      if (linked.length) {
        const m = await trx.raw(
          `insert into account_users (au_userid, au_accountid, au_role)
           select u.u_id, t.a::uuid, t.r from unnest(?::text[], ?::text[], ?::text[]) as t(e, a, r)
           join users u on lower(u.u_email) = lower(t.e)
           on conflict (au_accountid, au_userid) do nothing`,
          [linked.map((x) => x.r.email), linked.map((x) => x.account as string), linked.map((x) => (x.r.role || 'member').toLowerCase())],
        );
        result.memberships += m.rowCount ?? 0;
      }
      // Spec 3: e-mail domain membership, for the rows just inserted.
      const d = await trx.raw(
        `insert into account_users (au_userid, au_accountid, au_role)
         select u.u_id, a.a_id, 'member'
           from unnest(?::text[]) as t(e)
           join users u on lower(u.u_email) = lower(t.e)
           join accounts a on a.a_email_domain is not null and lower(a.a_email_domain) = lower(split_part(t.e, '@', 2))
         on conflict (au_accountid, au_userid) do nothing`,
        [part.map((r) => r.email)],
      );
      result.memberships += d.rowCount ?? 0;
    }
  });
  result.ok = true;
  return result;
}
