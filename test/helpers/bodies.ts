import type { Knex } from 'knex';
import { expect } from 'vitest';
import type { TestClient } from './app.js';

/**
 * The business tables and how to read them in a stable order. Sessions and rate_limits are left out: any request
 * may legitimately touch them; guest tokens likewise (handed out to anyone who asks).
 */
const BUSINESS: Array<[string, string, (q: Knex.QueryBuilder) => Knex.QueryBuilder]> = [
  ['users', 'u_id', (q) => q],
  ['accounts', 'a_id', (q) => q],
  ['account_users', 'au_id', (q) => q],
  ['folders', 'fo_id', (q) => q],
  ['files', 'fs_id', (q) => q],
  ['storage_uploads', 'su_id', (q) => q],
  ['permission_grants', 'pg_role', (q) => q.orderBy('pg_group')],
  ['tokens', 't_id', (q) => q.whereIn('t_type', ['verify', 'reset'])],
];

/**
 * One digest of every business row: equal digests before and after a request mean it changed nothing. Computed by the
 * database in one statement (each row's text form, hashed in key order), so a fuzz run does not pull every row.
 */
export async function businessDigest(db: Knex): Promise<string> {
  const parts = BUSINESS.map(([table, key, scope]) => {
    const rows = scope(db(table).select('*')).toSQL().toNative();
    const order = table === 'permission_grants' ? 'x.pg_role, x.pg_group' : `x.${key}`;
    return { sql: `(select coalesce(string_agg(md5(x::text), ',' order by ${order}), '') from (${rows.sql}) x)`, bindings: rows.bindings };
  });
  const sql = `select md5(concat_ws('|', ${parts.map((p) => p.sql).join(', ')})) as digest`;
  const result = await db.raw(
    sql.replace(/\$\d+/g, '?'),
    parts.flatMap((p) => p.bindings as Knex.RawBinding[]),
  );
  return (result.rows[0] as { digest: string }).digest;
}

export type RawMethod = 'post' | 'put' | 'patch' | 'delete';

/** A request with exactly these bytes and headers, with the client's cookies and CSRF header. */
export function rawSend(client: TestClient, method: RawMethod, url: string, body: Buffer | string, headers: Record<string, string> = {}) {
  // TestClient.raw types the methods it has helpers for; supertest itself takes PATCH too.
  let req = client.raw(method as 'post', url);
  for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
  // The identity serializer: superagent would otherwise JSON-encode a Buffer sent as application/json.
  return req.serialize((b) => b).send(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
}

/** What every refusal must look like: a 4xx with a JSON {code, message}. */
export function expectClientError(res: { status: number; body: unknown; text: string }, status?: number, code?: string): void {
  const where = `${res.status} ${res.text.slice(0, 300)}`;
  if (status !== undefined) expect(res.status, where).toBe(status);
  expect(res.status, where).toBeGreaterThanOrEqual(400);
  expect(res.status, where).toBeLessThan(500);
  const body = res.body as { code?: unknown; message?: unknown };
  expect(typeof body?.code, where).toBe('string');
  expect(typeof body?.message, where).toBe('string');
  if (code !== undefined) expect(body.code, where).toBe(code);
}
