import type { Knex } from 'knex';
import { ApiError } from '../errors.js';
import { scoped, accountOf } from '../models/scope.js';
import { LIST_MAX_DEPTH, listItems, valueFromTitle } from '../../resources/listItems.js';
import { type ResourceHooks } from '../crud/adapter.js';

type Row = Record<string, unknown>;

/** The ids from `id` up to the top of its tree (id first). */
async function ancestry(trx: Knex.Transaction, accountId: string, id: string): Promise<string[]> {
  const rows = await trx
    .withRecursive('up', (q) =>
      q
        .select('li_id', 'li_parentid', trx.raw('1 as depth'))
        .from('list_items')
        .where({ li_id: id, li_accountid: accountId })
        .unionAll((u) => u.select('p.li_id', 'p.li_parentid', trx.raw('up.depth + 1')).from('list_items as p').join('up', 'p.li_id', 'up.li_parentid').where('up.depth', '<', 64)),
    )
    .select('li_id')
    .from('up')
    .orderBy('depth');
  return rows.map((r: Row) => String(r.li_id));
}

/** How many levels hang below `id` (0 for a leaf). */
async function heightBelow(trx: Knex.Transaction, accountId: string, id: string): Promise<number> {
  const row = await trx
    .withRecursive('down', (q) =>
      q
        .select('li_id', trx.raw('0 as depth'))
        .from('list_items')
        .where({ li_id: id, li_accountid: accountId })
        .unionAll((u) => u.select('c.li_id', trx.raw('down.depth + 1')).from('list_items as c').join('down', 'c.li_parentid', 'down.li_id').where('down.depth', '<', 64)),
    )
    .max({ h: 'depth' })
    .from('down')
    .first();
  return Number(row?.h ?? 0);
}

/**
 * list-items: the value defaults from the title; a parent must be an item of the same list; no item may hang below
 * itself; the tree is at most LIST_MAX_DEPTH deep; an item moved to another parent goes last among its new siblings
 * unless li_order says where. (Deleting an item deletes its subtree: the foreign key cascades.)
 */
export const listItemsHooks: ResourceHooks = {
  async prepare(trx, data, req, existing) {
    const accountId = accountOf(req);
    if (!existing && (data.li_value === null || data.li_value === undefined)) data.li_value = valueFromTitle(String(data.li_title ?? ''));
    if (existing && data.li_value === null) throw new ApiError(400, 'validation_failed', 'Please enter a value', { li_value: 'error_required' });
    const listId = String(existing?.li_listid ?? data.li_listid);
    const parentId = data.li_parentid;
    // Moved under another parent without a position: it goes last there.
    if (existing && parentId !== undefined && (parentId ?? null) !== (existing.li_parentid ?? null) && data.li_order === undefined) {
      const q = scoped(trx, listItems, accountId).where('li_listid', listId);
      if (parentId === null) q.whereNull('li_parentid');
      else q.where('li_parentid', String(parentId));
      const last = await q.max({ n: 'li_order' }).first();
      data.li_order = last?.n === null || last?.n === undefined ? 0 : Number(last.n) + 1;
    }
    if (parentId === undefined || parentId === null) {
      if (existing && parentId === null) {
        const height = await heightBelow(trx, accountId, String(existing.li_id));
        if (height + 1 > LIST_MAX_DEPTH) throw new ApiError(400, 'list_import_too_deep', 'The tree would be too deep', { li_parentid: 'error_list_too_deep' });
      }
      return;
    }
    const parent = await scoped(trx, listItems, accountId).where('li_id', String(parentId)).first('li_listid');
    if (!parent || parent.li_listid !== listId) throw new ApiError(400, 'validation_failed', 'The parent is not an item of this list', { li_parentid: 'error_reference_invalid' });
    const above = await ancestry(trx, accountId, String(parentId));
    if (existing && above.includes(String(existing.li_id))) throw new ApiError(400, 'list_import_cycle', 'An item cannot hang below itself', { li_parentid: 'error_list_cycle' });
    const below = existing ? await heightBelow(trx, accountId, String(existing.li_id)) : 0;
    if (above.length + 1 + below > LIST_MAX_DEPTH)
      throw new ApiError(400, 'list_import_too_deep', `A list is at most ${LIST_MAX_DEPTH} levels deep`, { li_parentid: 'error_list_too_deep' });
  },
};
