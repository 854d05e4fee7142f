// What the history costs (issue 16: at most 15% on a single update and on a 10,000-row bulk update), measured side by
// side in one run: the same database with the leads' history trigger (`ls_history`, api/db/migrationHelpers.ts
// historyTrigger) and without it (dropped for the arm, recreated after), the arms alternating round by round so that
// the machine's drift falls on both.
//
// Per arm and round, on one account with N leads of one event (default 10,000), through HTTP as a member:
//   - single: 40 × PUT /leads/{id} {ld_first_name} (a different lead each time), the median answer time;
//   - bulk: POST /leads/bulk {action: "update", filter: {ld_eventid}, changes: {ld_is_valid}} over every lead;
//   - SQL: the same bulk change as one `UPDATE leads …` statement (the database's share alone).
// Each arm checks its effect (history entries written with the trigger, none without).
//
// The first --warmup rounds (default 1) run both arms and are not counted: the first round of either arm ran on cold
// caches (the server's code, PostgreSQL's plans and pages) and made its arm look slower.
// npx tsx bench/history.ts [--leads 10000] [--rounds 6] [--warmup 1] [--singles 40] [--only pglite|postgres]; BENCH_DATABASE_URL=postgres://… also runs on PostgreSQL.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { dropHistoryTrigger, historyTrigger } from '../api/db/migrationHelpers.js';
import { startApp, type TestApp } from '../test/helpers/app.js';

const { values } = parseArgs({
  options: {
    leads: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '6' },
    warmup: { type: 'string', default: '1' },
    singles: { type: 'string', default: '40' },
    only: { type: 'string' },
  },
});
const total = Number(values.leads);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const singles = Number(values.singles);
const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
type Arm = 'with' | 'without';
type Figures = Record<Arm, { single: number[]; bulk: number[]; sql: number[] }> & { floor: number[] };

async function setTrigger(t: TestApp, on: boolean) {
  await dropHistoryTrigger(t.db, 'leads');
  if (on) await historyTrigger(t.db, 'leads', 'ld_id', 'ld_accountid');
}

async function bench(kind: 'pglite' | 'postgres'): Promise<Figures> {
  const t = await startApp(kind);
  const figures: Figures = { with: { single: [], bulk: [], sql: [] }, without: { single: [], bulk: [], sql: [] }, floor: [] };
  try {
    const { a_id: accountId } = await t.account('Bench history');
    const member = await t.signedIn('member');
    await t.member(accountId, member.userId);
    const [event] = await t.db('events').insert({ ev_accountid: accountId, ev_title: 'Bench', ev_name: 'bench', ev_access_type: 'open' }).returning('ev_id');
    await t.db.raw(
      `insert into leads (ld_accountid, ld_eventid, ld_email, ld_first_name, ld_last_name, ld_ownerid, ld_captured_by, ld_answers, ld_source, ld_captured_at)
       select ?, ?, 'lead' || g || '@bench.example', 'First' || g, 'Last' || g, ?, ?, jsonb_build_object('company', 'Company ' || g), 'scan',
              now() - g * interval '1 minute'
         from generate_series(1, ?) g`,
      [accountId, event.ev_id, member.userId, member.userId, total],
    );
    if (kind === 'postgres') await t.db.raw('vacuum analyze leads');
    const ids = (await t.db('leads').where('ld_accountid', accountId).orderBy('ld_id').pluck('ld_id')) as string[];
    const base = `/api/1/accounts/${accountId}/leads`;
    let valid = true;
    let n = 0;
    // Entries per record (history_by_record): a bulk change's records share one stored entry (migrations/20261128001900).
    const entries = async () => Number((await t.db('history_by_record').where('h_table', 'leads').count({ n: '*' }).first())?.n);
    for (let round = 0; round < warmup + rounds; round++) {
      const arms: Arm[] = round % 2 ? ['without', 'with'] : ['with', 'without'];
      for (const arm of arms) {
        await setTrigger(t, arm === 'with');
        const before = await entries();
        // Single updates: one lead each, through the whole route (session, permission, checks, the update, the answer).
        const times: number[] = [];
        for (let i = 0; i < singles; i++) {
          const id = ids[n++ % ids.length];
          const t0 = performance.now();
          const res = await member.put(`${base}/${id}`, { ld_first_name: `Renamed ${n}` });
          times.push(performance.now() - t0);
          if (res.status !== 200) throw new Error(`single: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        }
        figures[arm].single.push(median(times));
        // The bulk update of every lead by filter.
        valid = !valid;
        let t0 = performance.now();
        const res = await member.post(`${base}/bulk`, { action: 'update', filter: { ld_eventid: event.ev_id }, changes: { ld_is_valid: valid } });
        figures[arm].bulk.push(performance.now() - t0);
        if (res.status !== 200 || res.body.count !== total) throw new Error(`bulk: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        // The same change as one statement.
        valid = !valid;
        t0 = performance.now();
        await t.db.raw('update leads set ld_is_valid = ?, ld_updated_at = now() where ld_accountid = ? and ld_eventid = ?', [valid, accountId, event.ev_id]);
        figures[arm].sql.push(performance.now() - t0);
        if (arm === 'without') {
          // The floor: what the history stores for the bulk change, inserted by hand without any trigger (then rolled
          // back): the records that changed alike in one entry (migrations/20261128001900), whatever computes it.
          t0 = performance.now();
          await t.db
            .transaction(async (trx) => {
              await trx.raw(
                `insert into history (h_table, h_recordids, h_accountid, h_action, h_changes, h_user_label)
                 select 'leads', array_agg(ld_id), ld_accountid, 'update', jsonb_build_object('ld_is_valid', jsonb_build_array(not ld_is_valid, ld_is_valid)), 'system'
                   from leads where ld_accountid = ? and ld_eventid = ? group by ld_accountid, ld_is_valid`,
                [accountId, event.ev_id],
              );
              figures.floor.push(performance.now() - t0);
              throw new Error('rollback');
            })
            .catch((err: Error) => {
              if (err.message !== 'rollback') throw err;
            });
        }
        const written = (await entries()) - before;
        const expected = arm === 'with' ? singles + 2 * total : 0;
        if (written !== expected) throw new Error(`${arm}: ${written} history entries, expected ${expected}`);
        console.log(
          `  ${kind} ${round < warmup ? 'warm-up' : `round ${round + 1 - warmup}`} ${arm.padEnd(7)}: single ${median(times).toFixed(1)} ms, bulk ${(figures[arm].bulk.at(-1)! / 1000).toFixed(2)} s, SQL ${(figures[arm].sql.at(-1)! / 1000).toFixed(2)} s  (load ${load()})`,
        );
      }
      if (kind === 'postgres') await t.db.raw('vacuum leads');
      if (round < warmup) {
        for (const arm of ['with', 'without'] as const) for (const k of ['single', 'bulk', 'sql'] as const) figures[arm][k].length = 0;
        figures.floor.length = 0;
      }
    }
    await setTrigger(t, true);
  } finally {
    await t.close();
  }
  const ratio = (k: 'single' | 'bulk' | 'sql') => median(figures.with[k]) / median(figures.without[k]);
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const s = (x: number) => `${(x / 1000).toFixed(2)} s`;
  console.log(`${kind}: ${total.toLocaleString('en')} leads, ${rounds} rounds per arm (medians over rounds; load ${load()})`);
  console.log(
    `  single update (median of ${singles})  with ${ms(median(figures.with.single))}  without ${ms(median(figures.without.single))}  ratio ${ratio('single').toFixed(3)}`,
  );
  console.log(`  bulk update of ${total} by filter     with ${s(median(figures.with.bulk))}  without ${s(median(figures.without.bulk))}  ratio ${ratio('bulk').toFixed(3)}`);
  console.log(`  one UPDATE statement              with ${s(median(figures.with.sql))}  without ${s(median(figures.without.sql))}  ratio ${ratio('sql').toFixed(3)}`);
  console.log(
    `  ${total} records' entry inserted alone (no trigger; the floor of what is stored): ${s(median(figures.floor))} = ${((100 * median(figures.floor)) / median(figures.without.sql)).toFixed(0)}% of the UPDATE without history`,
  );
  return figures;
}

let kinds: ('pglite' | 'postgres')[] = ['pglite'];
if (process.env.BENCH_DATABASE_URL) {
  process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  kinds.push('postgres');
}
if (values.only) kinds = kinds.filter((k) => k === values.only);
console.log(`History benchmark: ${total} leads, ${rounds} rounds per arm, ${singles} single updates per round`);
for (const kind of kinds) await bench(kind);
process.exit(0);
