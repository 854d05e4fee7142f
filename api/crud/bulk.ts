import type { Request, RequestHandler, Router } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import { ctx } from '../context.js';
import { ApiError, notFound, validate } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import type { Adapter } from './adapter.js';
import { parseBody, rejectNulBytes } from './input.js';
import { applyFilters, filterValueError, parseFilter } from './list.js';
import { referenceConflict } from './references.js';
import { trashMany } from './trash.js';
import { fieldsOf } from '../../resources/define.js';
import { isUuid } from '../../resources/fields.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;

/** Most ids one call may name (a filter may select any number of rows). */
export const BULK_MAX_IDS = 10_000;
/** Reasons a refusal lists: the first few, enough to see what is wrong. */
export const BULK_REASONS = 5;

const bulkBody = z.object({
  action: z.enum(['delete', 'update'], { error: 'error_bulk_action_invalid' }),
  ids: z
    .array(z.string().refine(isUuid, { error: 'error_uuid_invalid' }), { error: 'error_invalid_value' })
    .max(BULK_MAX_IDS, { error: 'error_too_many' })
    .optional(),
  filter: z.record(z.string(), z.unknown(), { error: 'error_invalid_value' }).optional(),
  changes: z.record(z.string(), z.unknown(), { error: 'error_invalid_value' }).optional(),
});
type BulkBody = z.infer<typeof bulkBody>;

/** The fields a bulk update may change (FieldMeta.bulk). */
export const bulkFieldsOf = (decl: ResourceDeclaration): string[] =>
  fieldsOf(decl)
    .filter(([, m]) => m.bulk)
    .map(([f]) => f);

/**
 * What a resource's updateMany or removeMany throws when a check that does not depend on the row fails (an owner who
 * is not a member): every row is refused for that same reason, as the row-by-row check would have found.
 */
export class EveryRowRefused extends Error {
  constructor(readonly reason: ApiError) {
    super(reason.message);
  }
}

/** What one refused row says: its id and the error a single update or delete of it would have answered. */
interface Reason {
  id: string;
  code: string;
  message: string;
  fields?: Record<string, string>;
}

/**
 * POST …/{resource}/bulk {action: "delete" | "update", ids | filter, changes} → {count} (platform-and-flows.md section
 * 1): exactly one of ids and filter (filter {} = every row; both or neither → 400 bulk_target_invalid); changes only
 * of `bulk` fields (else 400 bulk_field_not_allowed), validated like a single update. One transaction; each row goes
 * through the resource's own update or delete (its rules, hooks and history), each in a savepoint so one refusal does
 * not hide the next — or, where the resource has it, the set-wise form of the same checks and write (updateMany /
 * removeMany; a trash resource's delete is always set-wise: trash.ts trashMany); an id not in this account → 404, any refused row → 400 bulk_refused with the first few reasons;
 * either way nothing changes.
 */
export function bulkRoute(router: Router, decl: ResourceDeclaration, adapter: Adapter): void {
  // The body says which permission it needs: update or delete.
  const permission: RequestHandler = (req, res, next) => {
    rejectNulBytes(req.body);
    const body = validate(bulkBody, req.body);
    res.locals.bulk = body;
    return requirePermission(decl.group, decl.operations[body.action]!)(req, res, next);
  };

  router.post('/bulk', permission, async (req, res) => {
    const body = res.locals.bulk as BulkBody;
    if ((body.ids === undefined) === (body.filter === undefined))
      throw new ApiError(400, 'bulk_target_invalid', 'Give either ids or a filter', { ids: 'error_bulk_target_invalid', filter: 'error_bulk_target_invalid' });
    const changes = body.action === 'update' ? checkedChanges(req, decl, adapter, body.changes) : undefined;
    const { db } = ctx(req);
    const after: (() => Promise<void>)[] = [];
    const count = await db.transaction(async (trx) => {
      // By filter, where the resource can change every matching record in one statement: without reading them.
      if (changes && body.filter && adapter.updateMatching) {
        const matched = await updateMatching(trx, req, decl, adapter, body, changes);
        if (matched !== undefined) return matched;
      }
      const rows = await targetRows(trx, req, decl, adapter, body);
      const reasons: Reason[] = [];
      let refused = 0;
      // The resource's set-wise check and write first (a few statements for any number of rows); when it refuses a
      // row, its savepoint goes and every row is checked alone below, for the reasons.
      // A trash resource's delete only marks each record (trashMany below); its removeMany, if any, is the purge's.
      const many = changes ? adapter.updateMany : decl.trash ? undefined : adapter.removeMany;
      let setWise = false;
      if (!changes && decl.trash && rows.length) {
        // A trash resource's delete, set-wise (trash.ts trashMany): the single delete's check for every row at once.
        const kept = await trashMany(trx, decl, adapter, req, rows);
        refused = kept.length;
        for (const id of kept.slice(0, BULK_REASONS)) reasons.push(reasonOf(id, referenceConflict()));
        setWise = !refused;
      } else if (many && rows.length) {
        try {
          await trx.transaction(async (sp) => {
            const done = changes ? await adapter.updateMany!(sp, rows, { ...changes }, req) : await adapter.removeMany!(sp, rows, req);
            if (done?.afterCommit) after.push(done.afterCommit);
          });
          setWise = true;
        } catch (err) {
          if (err instanceof EveryRowRefused) {
            refused = rows.length;
            for (const row of rows.slice(0, BULK_REASONS)) reasons.push(reasonOf(String(row[adapter.idColumn]), err.reason));
          } else if (!(err instanceof ApiError) || err.status >= 500) throw err;
        }
      }
      for (const row of setWise || refused ? [] : rows) {
        const id = String(row[adapter.idColumn]);
        try {
          // A savepoint: a refused row (a rule, a unique index) rolls back alone, and the next rows are still checked.
          await trx.transaction(async (sp) => {
            if (changes) await adapter.update(sp, id, { ...changes }, req, row);
            else {
              const removed = await adapter.remove(sp, id, req, row);
              if (removed?.afterCommit) after.push(removed.afterCommit);
            }
          });
        } catch (err) {
          if (!(err instanceof ApiError) || err.status >= 500) throw err;
          refused += 1;
          if (reasons.length < BULK_REASONS) reasons.push(reasonOf(id, err));
        }
      }
      if (refused) throw bulkRefused(body.action, refused, rows.length, reasons);
      return rows.length;
    });
    for (const work of after) await work();
    res.json({ count });
  });
}

const reasonOf = (id: string, err: ApiError): Reason => ({ id, code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) });

/** 400 bulk_refused: how many of how many, the first few reasons; nothing was changed. */
const bulkRefused = (action: BulkBody['action'], refused: number, of: number, reasons: Reason[]) =>
  new ApiError(400, 'bulk_refused', `${refused} of ${of} records cannot be ${action === 'delete' ? 'deleted' : 'changed'}; nothing was changed`, undefined, {
    refused,
    reasons,
  });

/**
 * A bulk update by filter through the resource's updateMatching: the ids the list's query selects with the filter, as
 * a subquery of one UPDATE. Undefined when the resource needs the rows for this change. Refused (EveryRowRefused):
 * every matching record is, with the first few as reasons; nothing matching is a count of 0, as row by row.
 */
async function updateMatching(trx: Knex.Transaction, req: Request, decl: ResourceDeclaration, adapter: Adapter, body: BulkBody, changes: Row): Promise<number | undefined> {
  const filter = parseFilter(body.filter ?? {}, decl, adapter.idColumn);
  const matching = () => trx.select(adapter.idColumn).from(applyFilters(adapter.query(trx as unknown as Knex, req), filter, decl, adapter.idColumn).as('matching'));
  try {
    return await trx.transaction((sp) => adapter.updateMatching!(sp, matching(), { ...changes }, req));
  } catch (err) {
    if (!(err instanceof EveryRowRefused)) throw filterValueError(err);
    const total = Number((await trx.count({ n: '*' }).from(matching().as('m')).first())?.n ?? 0);
    if (!total) return 0;
    const first = (await matching().orderBy(adapter.idColumn).limit(BULK_REASONS)) as Row[];
    throw bulkRefused(
      'update',
      total,
      total,
      first.map((r) => reasonOf(String(r[adapter.idColumn]), err.reason)),
    );
  }
}

/** The changes of a bulk update: only `bulk` fields, at least one, validated by the update schema. */
function checkedChanges(req: Request, decl: ResourceDeclaration, adapter: Adapter, changes: Row | undefined): Row {
  const allowed = new Set(bulkFieldsOf(decl));
  const keys = Object.keys(changes ?? {});
  const refused = keys.filter((k) => !allowed.has(k));
  if (refused.length)
    throw new ApiError(
      400,
      'bulk_field_not_allowed',
      'These fields cannot be changed for many records at once',
      Object.fromEntries(refused.map((k) => [k, 'error_bulk_field_not_allowed'])),
    );
  if (!keys.length) throw new ApiError(400, 'validation_failed', 'Name at least one change', { changes: 'error_required' });
  const data = parseBody(decl, adapter.schemas(req).update, changes);
  return Object.fromEntries(Object.entries(data).filter(([k]) => allowed.has(k)));
}

/** The rows the call names, as the resource's query reads them (so each is checked like a single write). */
async function targetRows(trx: Knex.Transaction, req: Request, decl: ResourceDeclaration, adapter: Adapter, body: BulkBody): Promise<Row[]> {
  const base = adapter.query(trx as unknown as Knex, req);
  if (body.ids) {
    const ids = [...new Set(body.ids.map((i) => i.toLowerCase()))];
    const rows: Row[] = ids.length ? await base.whereIn(adapter.idColumn, ids).forUpdate() : [];
    if (rows.length !== ids.length) throw notFound('A record of the selection does not exist');
    return rows;
  }
  const filter = parseFilter(body.filter ?? {}, decl, adapter.idColumn);
  try {
    return await applyFilters(base, filter, decl, adapter.idColumn).orderBy(adapter.idColumn);
  } catch (err) {
    throw filterValueError(err);
  }
}
