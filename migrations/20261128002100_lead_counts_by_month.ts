import type { Knex } from 'knex';

/**
 * Lead counts by month too (issue 18, the event day): the statistics of a year by owner read every daily row of the
 * owner dimension, a row per day, event and owner (about 340,000 rows and 5,800 buffers for a year of a million leads
 * over ten events and a hundred owners: 250–350 ms of the database a call under load, the largest statistic in
 * pg_stat_statements once the searches' counts were gone).
 *
 * Each dimension of lead_counts (migration 20261128001800) now has a monthly twin, `<dim>.month`, whose `lc_day` is the
 * first day of the month: the same triggers keep both grains in the same statement (a lead is counted in its day's
 * row and in its month's), the rebuild recounts both. The statistics read whole months from the monthly rows and only
 * the days at either end of the range from the daily ones (api/console/stats.ts, countsIn); by day and by week they
 * read the daily rows as before. A year by owner reads about 12,000 rows instead of 340,000.
 *
 * The functions are made by `counting(grains)` below: `down` makes them again with the daily grain alone, as
 * 20261128001800 made them, and takes the monthly rows away.
 */
type Grain = 'day' | 'month';

const DIMS = ['owner', 'source', 'status', 'valid'] as const;
/** The dimensions of each grain: (index in VALUES, lc_dim, monthly?). */
const dimensions = (grains: readonly Grain[]) =>
  `(values ${grains.flatMap((g) => DIMS.map((d, i) => `(${i + 1}, '${g === 'day' ? d : `${d}.month`}', ${g === 'month'})`)).join(', ')}) as k(i, dim, monthly)`;
const VALUES = (r: string) => `array[coalesce(${r}.ld_ownerid::text, ''), ${r}.ld_source, ${r}.ld_transcription_status, ${r}.ld_is_valid::text]`;
const DAY = (r: string) => `(${r}.ld_captured_at at time zone 'UTC')::date`;
/** The row's day in grain k: the day, or the first day of its month. */
const IN_GRAIN = (day: string) => `case when k.monthly then date_trunc('month', ${day})::date else ${day} end`;
const UPSERT = `insert into lead_counts as c (lc_accountid, lc_dim, lc_day, lc_eventid, lc_value, lc_shard, lc_n)`;
const ON_CONFLICT = `on conflict (lc_accountid, lc_dim, lc_day, lc_eventid, lc_value, lc_shard) do update set lc_n = c.lc_n + excluded.lc_n`;
const SHARD = `(pg_backend_pid() % 8)::smallint`;

/** The trigger functions and the rebuild of lead_counts, counting in `grains`. */
function counting(grains: readonly Grain[]): string[] {
  const DIMENSIONS = dimensions(grains);
  const countingFunction = (op: 'insert' | 'delete', rows: 'new_rows' | 'old_rows', sign: '' | '-', where: string) => `
    create or replace function ls_lead_counts_${op}() returns trigger language plpgsql set jit = off as $$
    begin
      ${UPSERT}
      select r.ld_accountid, k.dim, ${IN_GRAIN(DAY('r'))}, r.ld_eventid, (${VALUES('r')})[k.i], ${SHARD}, ${sign}count(*)::integer
        from ${rows} r cross join ${DIMENSIONS}
       where ${where}
       group by 1, 2, 3, 4, 5
       order by 1, 2, 3, 4, 5
      ${ON_CONFLICT};
      return null;
    end
    $$`;
  return [
    countingFunction('insert', 'new_rows', '', 'r.ld_deleted_at is null'),
    countingFunction('delete', 'old_rows', '-', 'r.ld_deleted_at is null and exists (select 1 from events e where e.ev_id = r.ld_eventid)'),
    // A lead moved within its month leaves the monthly row by -1 and comes back by +1: the sum drops it (having <> 0).
    `
    create or replace function ls_lead_counts_update() returns trigger language plpgsql set jit = off as $$
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
          select m.a, k.dim, ${IN_GRAIN('m.od')} as d, m.oe as e, m.ov[k.i] as v, -1 as n
            from moved m cross join ${DIMENSIONS}
           where m.ol and (m.placed or m.ov[k.i] is distinct from m.nv[k.i])
          union all
          select m.a, k.dim, ${IN_GRAIN('m.nd')}, m.ne, m.nv[k.i], 1
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
    $$`,
    `
    create or replace function ls_lead_counts_rebuild() returns void language sql as $$
      truncate lead_counts;
      insert into lead_counts (lc_accountid, lc_dim, lc_day, lc_eventid, lc_value, lc_shard, lc_n)
      select n.ld_accountid, k.dim, ${IN_GRAIN(DAY('n'))}, n.ld_eventid, (${VALUES('n')})[k.i], 0, count(*)::integer
        from leads n cross join ${DIMENSIONS}
       where n.ld_deleted_at is null
       group by 1, 2, 3, 4, 5;
      -- The planner's figures for what was just written (a year of counts read by nested loop otherwise).
      analyze lead_counts;
    $$`,
  ];
}

export async function up(knex: Knex): Promise<void> {
  for (const sql of counting(['day', 'month'])) await knex.raw(sql);
  await knex.raw('select ls_lead_counts_rebuild()');
}

export async function down(knex: Knex): Promise<void> {
  for (const sql of counting(['day'])) await knex.raw(sql);
  await knex.raw(`delete from lead_counts where lc_dim like '%.month'`);
}
