import type { Knex } from 'knex';
import { uid } from './app.js';

type Row = Record<string, unknown>;

/**
 * Events and leads written straight into the database, for tests of what reads them (handoffs, statistics) without
 * depending on how leads are captured.
 */
export async function insertEvent(db: Knex, accountId: string, values: Row = {}): Promise<{ ev_id: string; ev_title: string }> {
  const [row] = await db('events')
    .insert({ ev_accountid: accountId, ev_title: `Expo ${uid()}`, ev_name: uid(), ev_access_type: 'open', ...values })
    .returning(['ev_id', 'ev_title']);
  return row;
}

export async function insertLead(db: Knex, accountId: string, eventId: string, values: Row = {}): Promise<Row & { ld_id: string }> {
  const [row] = await db('leads')
    .insert({ ld_accountid: accountId, ld_eventid: eventId, ld_first_name: 'Sam', ld_last_name: 'Jansen', ld_email: `${uid()}@example.com`, ...values })
    .returning('*');
  return row;
}

/** Many leads in one statement: one per element of `rows` (each a partial lead). */
export async function insertLeads(db: Knex, accountId: string, eventId: string, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    await db('leads').insert(rows.slice(i, i + 1000).map((r) => ({ ld_accountid: accountId, ld_eventid: eventId, ...r })));
  }
}
