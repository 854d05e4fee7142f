import type { Request, Router } from 'express';
import type { Knex } from 'knex';
import { ctx } from '../context.js';
import { notFound } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { scopeFor } from '../models/scope.js';
import type { Adapter } from './adapter.js';
import { parseBody } from './input.js';
import { fieldsOf } from '../../resources/define.js';
import { isUuid } from '../../resources/fields.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;
export interface HistoryEntry {
  h_id: string;
  h_seq?: string | number;
  h_at: string | Date;
  h_userid: string | null;
  h_user_label: string;
  h_action: 'create' | 'update' | 'delete' | 'restore';
  h_changes: Record<string, [unknown, unknown]>;
}

const COLUMNS = ['h_id', 'h_seq', 'h_at', 'h_userid', 'h_user_label', 'h_action', 'h_changes'];

/** Columns whose values never leave the server: the declaration's secrets and hidden columns. */
function secretColumns(decl: ResourceDeclaration): Set<string> {
  return new Set([
    ...(decl.hidden ?? []),
    ...fieldsOf(decl)
      .filter(([, m]) => m.kind === 'secret')
      .map(([f]) => f),
  ]);
}

/**
 * A record's entries, newest first (the table's trigger wrote them; api/db/migrationHelpers.ts historyTrigger): its own
 * and those it shares with the records a statement changed alike (h_recordids, migrations/20261128001900).
 */
export async function historyOf(db: Knex | Knex.Transaction, decl: ResourceDeclaration, recordId: string): Promise<HistoryEntry[]> {
  const rows = (await db('history')
    .where('h_table', decl.table)
    .where((q) => q.where('h_recordid', recordId).orWhereRaw('h_recordids @> array[?::uuid]', [recordId]))
    .orderBy('h_seq', 'desc')
    .select(COLUMNS)) as HistoryEntry[];
  // The trigger already keeps secrets to "set"/"cleared"; a column hidden later is masked the same way here.
  const secrets = secretColumns(decl);
  const mask = (v: unknown) => (v === null || v === undefined || v === '' || v === 'cleared' ? v : 'set');
  return rows.map(({ h_seq: _seq, ...entry }) => ({
    ...entry,
    h_at: entry.h_at instanceof Date ? entry.h_at.toISOString() : entry.h_at,
    h_changes: Object.fromEntries(Object.entries(entry.h_changes ?? {}).map(([k, [b, a]]) => [k, secrets.has(k) ? [mask(b), mask(a)] : [b, a]])),
  }));
}

/**
 * The record's fields as they were right after `entryId`: the stored row with every later entry undone, newest first.
 * Only the fields that differ from today's row, and never a secret (its value was never recorded).
 */
export function stateAfter(decl: ResourceDeclaration, current: Row, entries: HistoryEntry[], entryId: string): Row | undefined {
  const index = entries.findIndex((e) => e.h_id === entryId);
  if (index < 0) return undefined;
  const state: Row = { ...current };
  for (const later of entries.slice(0, index)) for (const [field, [before]] of Object.entries(later.h_changes)) state[field] = before;
  const secrets = secretColumns(decl);
  const changed: Row = {};
  for (const [field, value] of Object.entries(state)) {
    if (secrets.has(field) || field.endsWith('_deleted_at')) continue;
    if (JSON.stringify(value) !== JSON.stringify(normalise(current[field]))) changed[field] = value;
  }
  return changed;
}

/** A stored value as the history's JSON has it (dates as ISO text). */
const normalise = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/**
 * GET …/{id}/history (the resource's get permission) and POST …/{id}/history/{h_id}/revert (update): the revert is a
 * normal update of the fields that differ from the state right after that entry — validated by the update schema,
 * through the resource's hooks, and itself an entry of the history.
 */
export function historyRoutes(router: Router, decl: ResourceDeclaration, adapter: Adapter, findOne: (req: Request, id: string) => Promise<Row>): void {
  router.get('/:id/history', requirePermission(decl.group, decl.operations.get!), async (req, res) => {
    const row = await findOne(req, String(req.params.id));
    res.json(await historyOf(ctx(req).db, decl, String(row[decl.primaryKey])));
  });

  router.post('/:id/history/:hid/revert', requirePermission(decl.group, decl.operations.update!), async (req, res) => {
    const id = String(req.params.id);
    const existing = await findOne(req, id);
    const hid = String(req.params.hid);
    if (!isUuid(hid)) throw notFound('The history entry does not exist');
    const { db } = ctx(req);
    const entries = await historyOf(db, decl, String(existing[decl.primaryKey]));
    // The stored row as the trigger saw it (the resource's query may join or leave out columns).
    const stored = await scopeFor(db, decl, req)
      .where(decl.primaryKey, existing[decl.primaryKey] as string)
      .first();
    const target = stateAfter(decl, stored ?? {}, entries, hid.toLowerCase());
    if (!target) throw notFound('The history entry does not exist');
    const data = parseBody(decl, adapter.schemas(req).update, target);
    await db.transaction((trx) => adapter.update(trx, id, data, req, existing));
    res.json(adapter.serialize(await findOne(req, id)));
  });
}
