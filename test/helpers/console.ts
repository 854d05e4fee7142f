import { expect } from 'vitest';
import { fieldsOf, writableFields } from '../../resources/define.js';
import { resourceNamed } from '../../resources/index.js';
import type { FieldMeta, ResourceDeclaration } from '../../resources/types.js';
import { startApp, uid, type Signed, type TestApp, type TestClient } from './app.js';
import type { DbKind } from './db.js';

type Row = Record<string, unknown>;

export const accountPath = (accountId: string, decl: ResourceDeclaration | string) => `/api/1/accounts/${accountId}/${typeof decl === 'string' ? decl : decl.name}`;

/** A valid value of a field's kind (references are made by the caller). */
export function sampleValue(meta: FieldMeta, field: string): unknown {
  switch (meta.kind) {
    case 'text':
      return `${field} ${uid()}`;
    case 'longtext':
      return `Text of ${field}`;
    case 'identifier':
      return uid();
    case 'email':
      return `${uid()}@example.com`;
    case 'url':
      return `https://example.com/${uid()}`;
    case 'colour':
      return '#12ab34';
    case 'date':
      return '2026-12-01';
    case 'datetime':
      return '2026-12-01T10:00:00.000Z';
    case 'enum':
      return meta.default ?? meta.options![0];
    case 'number':
      return meta.min ?? 0;
    case 'boolean':
      return true;
    case 'secret':
      return `secret-${uid()}`;
    case 'json':
      return null;
    default:
      return undefined;
  }
}

/**
 * A valid create body of a resource from its declaration: every required field, and its required references made
 * first through the API (recursively), in `accountId`. `overrides` replace generated values.
 */
export async function sampleBody(client: TestClient, accountId: string, decl: ResourceDeclaration, overrides: Row = {}): Promise<Row> {
  const body: Row = {};
  for (const [field, meta] of writableFields(decl.fields ?? {}, 'create')) {
    if (field in overrides) continue;
    if (!meta.required || meta.default !== undefined) continue;
    if (meta.kind === 'reference' || meta.kind === 'asset') {
      const target = resourceNamed(meta.reference!);
      if (!target || target.tenancy !== 'account') continue;
      const created = await createRecord(client, accountId, target);
      body[field] = created[meta.referenceKey ?? target.primaryKey];
    } else body[field] = sampleValue(meta, field);
  }
  return { ...body, ...overrides };
}

/** Creates a record through the API (201 expected) and answers it. */
export async function createRecord(client: TestClient, accountId: string, decl: ResourceDeclaration, overrides: Row = {}): Promise<Row> {
  const body = await sampleBody(client, accountId, decl, overrides);
  const res = await client.post(accountPath(accountId, decl), body);
  expect(res.status, `${decl.name} create: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

/** Rows of a resource's table in an account (straight from the database). */
export async function countIn(t: TestApp, decl: ResourceDeclaration, accountId: string): Promise<number> {
  const row = await t.db(decl.table).where(decl.accountKey!, accountId).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** The parent field of a child resource (fe_formid of form-elements…). */
export function parentField(decl: ResourceDeclaration): [string, FieldMeta] | undefined {
  return fieldsOf(decl).find(([, m]) => m.parent);
}

/** The usual start of an account-resource test: an app, a signed-in root user, and accounts A and B. */
export async function startConsoleApp(kind: DbKind, name: string): Promise<{ t: TestApp; root: Signed; a: string; b: string }> {
  const t = await startApp(kind);
  const root = await t.signedIn('root');
  const a = (await t.account(`${name} A`)).a_id;
  const b = (await t.account(`${name} B`)).a_id;
  return { t, root, a, b };
}
