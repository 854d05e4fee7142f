// Leads made set-based for benchmarks: one INSERT … SELECT FROM generate_series per batch, with names, e-mails,
// sources, statuses, validity, owners, badge codes and answers of a booth form spread over a year of capture times.
import type { Knex } from 'knex';

export const FIRST_NAMES = [
  'Ann',
  'Bob',
  'Cleo',
  'Daan',
  'Eva',
  'Femke',
  'Gert',
  'Hana',
  'Ivo',
  'Jan',
  'Kim',
  'Lotte',
  'Milan',
  'Noor',
  'Otto',
  'Pia',
  'Quinn',
  'Ruben',
  'Sanne',
  'Tom',
  'Uma',
  'Vera',
  'Wim',
  'Xander',
  'Yara',
  'Zoë',
];
export const LAST_NAMES = [
  'Smit',
  'de Vries',
  'Jansen',
  'Bakker',
  'Visser',
  'Meijer',
  'Mulder',
  'de Boer',
  'Bos',
  'Peters',
  'Hendriks',
  'Dekker',
  'Brouwer',
  'Dijkstra',
  'Kok',
  'Vos',
  'Hopper',
  'Lovelace',
  'Turing',
  'Lamarr',
];

export interface LeadsFixture {
  accountId: string;
  /** The leads go round these events (lead g to events[g % n]). */
  events: string[];
  /** Owners (and capturers), seven leads in a row each, round these members. */
  owners: string[];
  total: number;
  /** The first (oldest) `count` leads get this last name instead: a prefix only old leads match. */
  oldest?: { count: number; lastName: string };
  /** Leave the tables' triggers (the history) out, as a restore would (session_replication_role = replica). */
  withoutTriggers?: boolean;
  /** Rows per statement (default: all in one). */
  batch?: number;
  /**
   * Names and sources drawn by a hash of g, independent of the event (g % n): without it lead g's first name is
   * g % 26 and its source g % 5, so with 10 events each event has one source and each first name half the events —
   * an event's leads sorted by e-mail start 38,000 rows into the list, and an event with another source has none.
   */
  mixed?: boolean;
}

/**
 * Inserts `total` leads: lead g is captured at 2026-01-01 + g × 31 s (a year for a million), a tenth invalid, a few
 * percent of cards pending, postponed or done transcription, every source in turn, a badge code on every fifth.
 */
export async function insertLeads(db: Knex, f: LeadsFixture): Promise<void> {
  const batch = f.batch ?? f.total;
  const first = `array[${FIRST_NAMES.map((n) => `'${n}'`).join(',')}]`;
  const last = `array[${LAST_NAMES.map((n) => `'${n.replace(/'/g, "''")}'`).join(',')}]`;
  const oldest = f.oldest ?? { count: 0, lastName: '' };
  /** 0 … n-1 for lead g: g's remainder, or with `mixed` a hash of `of` (an expression of g). */
  const pick = (of: string, n: number) => (f.mixed ? `((hashint4(${of})::bigint & 2147483647) % ${n})` : `((${of === '-g' ? 'g' : of}) % ${n})`);
  await db.transaction(async (trx) => {
    if (f.withoutTriggers) await trx.raw('set local session_replication_role = replica');
    for (let from = 1; from <= f.total; from += batch) {
      await trx.raw(
        `insert into leads (ld_accountid, ld_eventid, ld_email, ld_first_name, ld_last_name, ld_ownerid, ld_captured_by, ld_answers,
                            ld_is_valid, ld_transcription_status, ld_source, ld_badge_code, ld_consent_news, ld_captured_at)
         select cast(:account as uuid), (cast(:events as uuid[]))[1 + g % cardinality(cast(:events as uuid[]))],
                lower(fn) || '.' || replace(lower(ln), ' ', '') || '.' || g || '@example.com', fn, ln,
                (cast(:owners as uuid[]))[1 + (g / 7) % cardinality(cast(:owners as uuid[]))], (cast(:owners as uuid[]))[1 + (g / 7) % cardinality(cast(:owners as uuid[]))],
                jsonb_build_object('company', 'Company ' || (g % 5000), 'interests', jsonb_build_array('software', 'hardware'), 'budget', (g % 10) * 5, 'newsletter', g % 2 = 0),
                g % 10 <> 0,
                case when g % 97 = 0 then 'pending' when g % 89 = 0 then 'postponed' when g % 83 = 0 then 'done' else 'none' end,
                (array['registration','scan','card','manual','download'])[1 + ${pick('-g', 5)}],
                case when g % 5 = 1 then 'B' || g end,
                g % 3 = 0,
                timestamptz '2026-01-01 00:00:00+00' + g * interval '31 seconds' + (g % 1000) * interval '1 microsecond'
           from generate_series(cast(:from as int), cast(:to as int)) g,
                lateral (select (${first})[1 + ${pick('g', FIRST_NAMES.length)}] fn) f,
                lateral (select case when g <= cast(:oldCount as int) then cast(:oldName as text) else (${last})[1 + ${f.mixed ? pick('g + 7919', LAST_NAMES.length) : `(g / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}`}] end ln) l`,
        {
          account: f.accountId,
          events: f.events,
          owners: f.owners,
          from,
          to: Math.min(f.total, from + batch - 1),
          oldCount: oldest.count,
          oldName: oldest.lastName,
        },
      );
    }
    // Without triggers the statistics' counts (lead_counts, migration 20261128001800) are not kept: count them once.
    if (f.withoutTriggers) await trx.raw('select ls_lead_counts_rebuild()');
  });
}
