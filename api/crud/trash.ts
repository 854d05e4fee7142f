import type { Request, Router } from 'express';
import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { ctx } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { deletedAtOf, scopeFor, trashParentsOf } from '../models/scope.js';
import { firstRow } from '../db/firstRow.js';
import { resourceAdapter, type Adapter, type ResourceHooks } from './adapter.js';
import { parseListQuery, runList, sendList } from './list.js';
import { referencedAmong } from './references.js';
import { uniqueConflict } from './rules.js';
import { isUuid } from '../../resources/fields.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;

/** The declaration as its trash is listed: sortable by the time of the delete, most recent first, counted exactly. */
function trashListOf(decl: ResourceDeclaration): ResourceDeclaration {
  const deletedAt = deletedAtOf(decl);
  return { ...decl, sortable: [...decl.sortable, deletedAt], defaultSort: { field: deletedAt, order: 'DESC' }, exactTotalUpTo: undefined, tieBreak: undefined };
}

/**
 * The trash of a resource (platform-and-flows.md section 1; the delete itself is the adapter's remove):
 * GET …/trash (list permission, the list conventions), POST …/{id}/restore and DELETE …/{id}/purge (delete
 * permission: undoing a delete, or making it final, is the deleter's). Only a record in the trash is restored or
 * purged; anything else answers 404.
 */
export function trashRoutes(router: Router, decl: ResourceDeclaration, adapter: Adapter, findOne: (req: Request, id: string) => Promise<Row>): void {
  const { idColumn, serialize } = adapter;
  const deletedAt = deletedAtOf(decl);
  const listed = trashListOf(decl);
  const inTrash = async (db: Knex | Knex.Transaction, req: Request, id: string, lock = false): Promise<Row> => {
    if (!isUuid(id)) throw notFound();
    const query = adapter.query(db, req, 'trashed').where(`${decl.table}.${idColumn}`, id);
    const row = await firstRow(lock ? query.forUpdate() : query);
    if (!row) throw notFound('The record is not in the trash');
    return row;
  };

  router.get('/trash', requirePermission(decl.group, decl.operations.list!), async (req, res) => {
    const query = parseListQuery(req, listed, idColumn);
    const { db, config } = ctx(req);
    const { rows, total } = await runList(db, () => adapter.query(db, req, 'trashed'), query, listed, idColumn, config.listMaxRows);
    sendList(res, decl.name, query, rows.map(serialize), total);
  });

  router.post('/:id/restore', requirePermission(decl.group, decl.operations.delete!), async (req, res) => {
    const id = String(req.params.id);
    await ctx(req).db.transaction(async (trx) => {
      const row = await inTrash(trx, req, id, true);
      // A record whose parent (a lead's event) is in the trash too would stay hidden: the parent comes back first.
      for (const { field, parent } of trashParentsOf(decl)) {
        if (
          row[field] &&
          (await scopeFor(trx, parent, req, 'trashed')
            .where(parent.primaryKey, row[field] as string)
            .first(trx.raw('1 as found')))
        )
          throw new ApiError(409, 'parent_in_trash', `Restore the ${parent.name} it belongs to first`, { [field]: 'error_parent_in_trash' });
      }
      try {
        await scopeFor(trx, decl, req, 'trashed')
          .where(idColumn, id)
          .update({ [deletedAt]: null });
      } catch (err) {
        // Its unique name was taken while it was in the trash: 409 name_taken with the field.
        throw uniqueConflict(decl, err) ?? err;
      }
    });
    res.json(serialize(await findOne(req, id)));
  });

  router.delete('/:id/purge', requirePermission(decl.group, decl.operations.delete!), async (req, res) => {
    const id = String(req.params.id);
    const { afterCommit, row } = await ctx(req).db.transaction(async (trx) => {
      const row = await inTrash(trx, req, id, true);
      return { row, afterCommit: (await adapter.purge(trx, id, req, row))?.afterCommit };
    });
    if (afterCommit) await afterCommit();
    res.json(serialize(row));
  });
}

/** Ids per UPDATE of trashMany. */
const TRASH_CHUNK = 5000;

/**
 * The delete of many records of a trash resource at once (POST …/bulk {action: "delete"}), as the single delete
 * (adapter.remove) does it for one, set-wise: every id that a restricting reference keeps is refused (409
 * reference_conflict, the single delete's answer), and when none is, one `UPDATE … SET <p>_deleted_at = now()` per
 * 5,000 live records of the request's scope (the history's trigger writes a delete entry for each). Records that hang
 * on one of them (`parent` / `trashWith`: a lead's event) are left as they are: the trash hides them with it, as after a
 * single delete. Answers the refused ids, in the order given; nothing is written when there is one.
 */
export async function trashMany(trx: Knex.Transaction, decl: ResourceDeclaration, adapter: Adapter, req: Request, rows: Row[]): Promise<string[]> {
  const keys = rows.map((r) => String(r[decl.primaryKey]));
  const kept = await referencedAmong(trx, decl.table, keys);
  if (kept.size) return rows.filter((_, i) => kept.has(keys[i])).map((r) => String(r[adapter.idColumn]));
  const ids = rows.map((r) => String(r[adapter.idColumn]));
  for (let i = 0; i < ids.length; i += TRASH_CHUNK)
    await scopeFor(trx, decl, req)
      .whereIn(`${decl.table}.${adapter.idColumn}`, ids.slice(i, i + TRASH_CHUNK))
      .update({ [deletedAtOf(decl)]: trx.fn.now() });
  return [];
}

/** A request as the purge's hooks read it, for the job that runs outside any request: the app and the account. */
function jobRequest(app: AppContext, accountId: string | undefined): Request {
  return { app: { locals: { ctx: app } }, account: accountId ? { a_id: accountId } : undefined, params: {}, query: {}, headers: {} } as unknown as Request;
}

/**
 * Purges what has been in the trash longer than TRASH_DAYS, with its files, resource by resource (the hooks' own
 * removal: an asset's stored bytes, a lead's card photos). Safe with several processes at once: each record is taken
 * with `for update skip locked` and purged only if it is still in the trash past the limit, so one process purges it.
 * Answers how many records went.
 */
export async function purgeExpiredTrash(
  app: AppContext,
  resources: ResourceDeclaration[],
  hooksOf: (name: string) => ResourceHooks | 'own' | undefined,
  registry: (name: string) => ResourceDeclaration | undefined,
  now: Date = new Date(),
  batch = 500,
): Promise<number> {
  const cutoff = new Date(now.getTime() - app.config.trashDays * 86400_000);
  let purged = 0;
  for (const decl of resources.filter((d) => d.trash && !d.singleton)) {
    const hooks = hooksOf(decl.name);
    if (hooks === 'own') continue;
    const adapter = resourceAdapter(decl, hooks ?? {}, registry);
    const deletedAt = deletedAtOf(decl);
    const key = decl.accountKey;
    for (;;) {
      const due = (await app
        .db(decl.table)
        .where(deletedAt, '<', cutoff)
        .orderBy(deletedAt)
        .limit(batch)
        .select(key ? [decl.primaryKey, key] : [decl.primaryKey])) as Row[];
      let done = 0;
      for (const candidate of due) {
        const id = candidate[decl.primaryKey] as string;
        const req = jobRequest(app, key ? (candidate[key] as string) : undefined);
        try {
          const afterCommit = await app.db.transaction(async (trx) => {
            const row = await trx(decl.table).where(decl.primaryKey, id).where(deletedAt, '<', cutoff).forUpdate().skipLocked().first();
            if (!row) return undefined;
            const removed = await adapter.purge(trx, String(row[adapter.idColumn]), req, row);
            return removed?.afterCommit ?? (async () => {});
          });
          if (afterCommit) {
            done++;
            await afterCommit();
          }
        } catch (err) {
          // One record that cannot go (a reference added behind the API's back) does not hold up the rest.
          app.log(`trash purge of ${decl.name} ${id}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      purged += done;
      // A short batch was the last; one where nothing could be taken (another process is at it) is left to it.
      if (due.length < batch || done === 0) break;
    }
  }
  return purged;
}
