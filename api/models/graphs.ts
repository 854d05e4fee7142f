import type { Knex } from 'knex';
import { scoped } from './scope.js';
import { events } from '../../resources/events.js';
import { eventForms } from '../../resources/eventForms.js';
import { forms } from '../../resources/forms.js';
import { formElements } from '../../resources/formElements.js';
import { listItems, buildListTree, type ListItemNode, type ListItemRow } from '../../resources/listItems.js';

type Row = Record<string, unknown>;

/** Trees of the given lists from one query: list id → its top-level nodes, each level in order. */
export async function listTrees(db: Knex, accountId: string, listIds: string[]): Promise<Map<string, ListItemNode[]>> {
  const trees = new Map<string, ListItemNode[]>();
  if (!listIds.length) return trees;
  const rows: (ListItemRow & { li_listid: string })[] = await scoped(db, listItems, accountId)
    .whereIn('li_listid', listIds)
    .select('li_id', 'li_listid', 'li_parentid', 'li_title', 'li_value')
    .orderBy([{ column: 'li_order' }, { column: 'li_id' }]);
  const byList = new Map<string, ListItemRow[]>(listIds.map((id) => [id, []]));
  for (const r of rows) byList.get(r.li_listid)?.push(r);
  for (const [id, items] of byList) trees.set(id, buildListTree(items));
  return trees;
}

export interface FormGraph {
  form: Row;
  elements: (Row & { items?: ListItemNode[] })[];
}

/** Forms with their elements in order and each element's list tree: three queries however many forms and elements. */
export async function formGraphs(db: Knex, accountId: string, formIds: string[]): Promise<Map<string, FormGraph>> {
  const out = new Map<string, FormGraph>();
  if (!formIds.length) return out;
  const formRows: Row[] = await scoped(db, forms, accountId).whereIn('f_id', formIds);
  const elements: Row[] = await scoped(db, formElements, accountId)
    .whereIn('fe_formid', formIds)
    .orderBy([{ column: 'fe_order' }, { column: 'fe_id' }]);
  const listIds = [
    ...new Set(
      elements
        .map((e) => e.fe_listid)
        .filter(Boolean)
        .map(String),
    ),
  ];
  const trees = await listTrees(db, accountId, listIds);
  for (const f of formRows) out.set(String(f.f_id), { form: f, elements: [] });
  for (const e of elements) out.get(String(e.fe_formid))?.elements.push(e.fe_listid ? { ...e, items: trees.get(String(e.fe_listid)) ?? [] } : e);
  return out;
}

export async function formGraph(db: Knex, accountId: string, formId: string): Promise<FormGraph | undefined> {
  return (await formGraphs(db, accountId, [formId])).get(formId);
}

/** An event with the forms booth staff fill for it, in order, and its registration form, each as a form graph. */
export interface EventGraph {
  event: Row;
  forms: FormGraph[];
  registration?: FormGraph;
}

export async function eventGraph(db: Knex, accountId: string, eventId: string): Promise<EventGraph | undefined> {
  const event = await scoped(db, events, accountId).where('ev_id', eventId).first();
  if (!event) return undefined;
  const links: Row[] = await scoped(db, eventForms, accountId)
    .where('ef_eventid', eventId)
    .orderBy([{ column: 'ef_order' }, { column: 'ef_id' }]);
  const ids = links.map((l) => String(l.ef_formid));
  const registrationId = event.ev_registration_formid ? String(event.ev_registration_formid) : undefined;
  const graphs = await formGraphs(db, accountId, [...new Set(registrationId ? [...ids, registrationId] : ids)]);
  return { event, forms: ids.map((id) => graphs.get(id)).filter((g): g is FormGraph => Boolean(g)), registration: registrationId ? graphs.get(registrationId) : undefined };
}
