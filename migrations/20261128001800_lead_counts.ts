import type { Knex } from 'knex';

/**
 * Lead counts kept as they are written (issue 18, the event day: the statistics were 4 s a call under load, and
 * 630–700 ms alone over a year of a million leads, each call counting every lead of the range again).
 *
 * `lead_counts` holds, per account, UTC day of capture, event and dimension, how many live leads (not in the trash)
 * have each value: owner (the user id as text, '' for none), source, transcription status and validity ('true' /
 * 'false'). A lead is counted once per dimension, so any one dimension's rows sum to the leads of that day and event
 * (the statistics by day and by event read the validity's two rows). A year of an account is a few rows per event and
 * day (about 110 with a hundred owners), not a row per lead.
 *
 * Three statement triggers on `leads` (transition tables, like the history) keep it: an insert adds its live leads,
 * a delete takes them away (unless their event is gone: an event's purge takes its counts with it through the
 * `events` delete trigger), an update moves a lead from its old place (event, day, live or not) and values to its
 * new ones, touching only the dimensions that changed when the place did not. Each statement writes one upsert with
 * its rows in key order, so concurrent writers take the rows' locks in the same order. Rows that fall to zero stay
 * (the statistics skip them); `ls_lead_counts_rebuild()` recounts everything from `leads` (the backfill here, and a
 * fixture loaded without triggers).
 *
 * What a trashed event hides is decided when reading (the statistics join the live events), as everywhere else.
 *
 * Today's rows of an event are written by every booth phone at once, and an upsert holds its rows' locks until the
 * transaction ends: so each count is kept in up to eight rows (`lc_shard`, the writing backend's pid modulo 8), which
 * readers sum, and concurrent writers rarely wait for one another. A count can go negative in one shard (a lead
 * counted by one backend, moved by another); only the sum means anything.
 */
const DIMENSIONS = `(values (1, 'owner'), (2, 'source'), (3, 'status'), (4, 'valid')) as k(i, dim)`;
const VALUES = (r: string) => `array[coalesce(${r}.ld_ownerid::text, ''), ${r}.ld_source, ${r}.ld_transcription_status, ${r}.ld_is_valid::text]`;
const DAY = (r: string) => `(${r}.ld_captured_at at time zone 'UTC')::date`;
const UPSERT = `insert into lead_counts as c (lc_accountid, lc_dim, lc_day, lc_eventid, lc_value, lc_shard, lc_n)`;
const ON_CONFLICT = `on conflict (lc_accountid, lc_dim, lc_day, lc_eventid, lc_value, lc_shard) do update set lc_n = c.lc_n + excluded.lc_n`;
/** The writer's shard: its backend, of eight (see the table's comment). */
const SHARD = `(pg_backend_pid() % 8)::smallint`;

/** The trigger function that adds (or with sign '-' takes away) the live leads of a transition table. */
const countingFunction = (op: 'insert' | 'delete', rows: 'new_rows' | 'old_rows', sign: '' | '-', where: string) => `
    create function ls_lead_counts_${op}() returns trigger language plpgsql set jit = off as $$
    begin
      ${UPSERT}
      select r.ld_accountid, k.dim, ${DAY('r')}, r.ld_eventid, (${VALUES('r')})[k.i], ${SHARD}, ${sign}count(*)::integer
        from ${rows} r cross join ${DIMENSIONS}
       where ${where}
       group by 1, 2, 3, 4, 5
       order by 1, 2, 3, 4, 5
      ${ON_CONFLICT};
      return null;
    end
    $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table lead_counts (
      lc_accountid uuid not null,
      lc_dim text not null,
      lc_day date not null,
      lc_eventid uuid not null,
      lc_value text not null,
      lc_shard smallint not null default 0,
      lc_n integer not null,
      constraint lead_counts_pkey primary key (lc_accountid, lc_dim, lc_day, lc_eventid, lc_value, lc_shard)
    ) with (fillfactor = 70)`);
  await knex.raw('create index lead_counts_event on lead_counts (lc_eventid)');

  // Inserts: one row a lead and dimension, grouped (a CSV import of 20,000 leads of one day is a few hundred rows).
  await knex.raw(countingFunction('insert', 'new_rows', '', 'r.ld_deleted_at is null'));
  // Deletes: a purge of trashed leads counts nothing; leads deleted with their event (or account) are skipped, the
  // event's rows go with it.
  await knex.raw(countingFunction('delete', 'old_rows', '-', 'r.ld_deleted_at is null and exists (select 1 from events e where e.ev_id = r.ld_eventid)'));
  // Updates: planned per statement (EXECUTE), as the history's are: a plan cached for a one-row statement would join a
  // bulk change of 100,000 leads by nested loop.
  await knex.raw(`
    create function ls_lead_counts_update() returns trigger language plpgsql set jit = off as $$
    begin
      execute $q$
        with pairs as (
          select o.ld_accountid as a,
                 o.ld_eventid as oe, ${DAY('o')} as od, o.ld_deleted_at is null as ol, ${VALUES('o')} as ov,
                 n.ld_eventid as ne, ${DAY('n')} as nd, n.ld_deleted_at is null as nl, ${VALUES('n')} as nv
            from old_rows o join new_rows n on n.ld_id = o.ld_id
        ),
        moved as (
          select p.*, (p.oe, p.od, p.ol) is distinct from (p.ne, p.nd, p.nl) as placed
            from pairs p
           where (p.oe, p.od, p.ol, p.ov) is distinct from (p.ne, p.nd, p.nl, p.nv) and (p.ol or p.nl)
        ),
        deltas as (
          select m.a, k.dim, m.od as d, m.oe as e, m.ov[k.i] as v, -1 as n
            from moved m cross join ${DIMENSIONS}
           where m.ol and (m.placed or m.ov[k.i] is distinct from m.nv[k.i])
          union all
          select m.a, k.dim, m.nd, m.ne, m.nv[k.i], 1
            from moved m cross join ${DIMENSIONS}
           where m.nl and (m.placed or m.ov[k.i] is distinct from m.nv[k.i])
        )
        ${UPSERT}
        select a, dim, d, e, v, ${SHARD}, sum(n)::integer from deltas
         group by 1, 2, 3, 4, 5 having sum(n) <> 0
         order by 1, 2, 3, 4, 5
        ${ON_CONFLICT}
      $q$;
      return null;
    end
    $$`);
  await knex.raw(`
    create function ls_lead_counts_event_gone() returns trigger language plpgsql as $$
    begin
      delete from lead_counts where lc_eventid in (select o.ev_id from old_rows o);
      return null;
    end
    $$`);
  await knex.raw(`
    create function ls_lead_counts_rebuild() returns void language sql as $$
      truncate lead_counts;
      insert into lead_counts (lc_accountid, lc_dim, lc_day, lc_eventid, lc_value, lc_shard, lc_n)
      select n.ld_accountid, k.dim, ${DAY('n')}, n.ld_eventid, (${VALUES('n')})[k.i], 0, count(*)::integer
        from leads n cross join ${DIMENSIONS}
       where n.ld_deleted_at is null
       group by 1, 2, 3, 4, 5;
      -- The planner's figures for what was just written (a year of counts read by nested loop otherwise).
      analyze lead_counts;
    $$`);
  await knex.raw('create trigger leads_counts_insert after insert on leads referencing new table as new_rows for each statement execute function ls_lead_counts_insert()');
  await knex.raw(
    'create trigger leads_counts_update after update on leads referencing old table as old_rows new table as new_rows for each statement execute function ls_lead_counts_update()',
  );
  await knex.raw('create trigger leads_counts_delete after delete on leads referencing old table as old_rows for each statement execute function ls_lead_counts_delete()');
  await knex.raw('create trigger events_lead_counts_gone after delete on events referencing old table as old_rows for each statement execute function ls_lead_counts_event_gone()');
  await knex.raw('select ls_lead_counts_rebuild()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger events_lead_counts_gone on events');
  for (const op of ['insert', 'update', 'delete']) await knex.raw(`drop trigger leads_counts_${op} on leads`);
  for (const fn of ['insert', 'update', 'delete', 'event_gone', 'rebuild']) await knex.raw(`drop function ls_lead_counts_${fn}()`);
  await knex.raw('drop table lead_counts');
}
