// Leads' bulk through the generic POST …/leads/bulk (platform-and-flows.md section 1): one account with N leads
// (default 10,000, a tenth of them card leads with a front and a back photo), then through HTTP as a member:
//   1. update the whole filter's validity (ld_is_valid false), 2. hand every lead to another owner (ld_ownerid),
//   3. delete the whole filter (to the trash: one UPDATE of ld_deleted_at, a history entry per lead).
// Each lead is checked like a single update or delete, set-wise, in one transaction.
// npx tsx bench/lead-bulk.ts [--leads 10000] [--runs 1] [--only pglite|postgres]; BENCH_DATABASE_URL=postgres://... also runs on PostgreSQL.
import { parseArgs } from 'node:util';
import { startApp, type TestApp } from '../test/helpers/app.js';

const { values } = parseArgs({ options: { leads: { type: 'string', default: '10000' }, runs: { type: 'string', default: '1' }, only: { type: 'string' } } });
const total = Number(values.leads);
const runs = Number(values.runs);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function seed(t: TestApp, accountId: string, owners: string[]) {
  const [event] = await t.db('events').insert({ ev_accountid: accountId, ev_title: 'Bench', ev_name: 'bench', ev_access_type: 'open' }).returning('ev_id');
  const cards = Math.floor(total / 10);
  // Two photos per card lead (the bytes are not written: a missing file is skipped by the byte removal, the record goes).
  await t.db.raw(
    `insert into lead_files (lf_id, lf_accountid, lf_type, lf_size, lf_path, lf_created_by)
     select gen_random_uuid(), ?, 'image/jpeg', 1000, ?, ? from generate_series(1, ?)`,
    [accountId, `/lead-files/${accountId}/2026/11`, owners[0], cards * 2],
  );
  await t.db.raw(
    `with f as (select array_agg(lf_id order by lf_id) ids from lead_files where lf_accountid = ?)
     insert into leads (ld_accountid, ld_eventid, ld_email, ld_first_name, ld_last_name, ld_ownerid, ld_captured_by, ld_answers, ld_source,
                        ld_front_fileid, ld_back_fileid)
     select ?, ?, 'lead' || g || '@bench.example', 'First' || g, 'Last' || g, ?, ?, jsonb_build_object('company', 'Company ' || g),
            case when g <= ? then 'card' else 'scan' end,
            case when g <= ? then f.ids[2 * g - 1] end, case when g <= ? then f.ids[2 * g] end
       from generate_series(1, ?) g, f`,
    [accountId, accountId, event.ev_id, owners[0], owners[0], cards, cards, cards, total],
  );
  return event.ev_id as string;
}

async function bench(kind: 'pglite' | 'postgres') {
  for (let r = 0; r < runs; r++) {
    const t = await startApp(kind);
    try {
      const { a_id: accountId } = await t.account('Bench bulk');
      const member = await t.signedIn('member');
      const other = await t.user(`other-${Date.now()}@bench.example`);
      await t.member(accountId, member.userId);
      await t.member(accountId, other.u_id);
      const eventId = await seed(t, accountId, [member.userId, other.u_id]);
      const path = `/api/1/accounts/${accountId}/leads/bulk`;
      const timed = async (label: string, body: Record<string, unknown>) => {
        const t0 = performance.now();
        const res = await member.post(path, body);
        const took = performance.now() - t0;
        if (res.status !== 200 || res.body.count !== total) throw new Error(`${label}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        console.log(`  ${kind} run ${r + 1}: ${label} of ${total.toLocaleString('en')} leads in ${s(took)} (${Math.round(total / (took / 1000))} leads/s)`);
        return took;
      };
      const filter = { ld_eventid: eventId };
      await timed('validity (filter)', { action: 'update', filter, changes: { ld_is_valid: false } });
      const invalid = Number((await t.db('leads').where({ ld_accountid: accountId, ld_is_valid: false }).count({ n: '*' }).first())?.n);
      if (invalid !== total) throw new Error(`validity: ${invalid} invalid`);
      await timed('owner (filter)', { action: 'update', filter, changes: { ld_ownerid: other.u_id } });
      const owned = Number((await t.db('leads').where({ ld_accountid: accountId, ld_ownerid: other.u_id }).count({ n: '*' }).first())?.n);
      if (owned !== total) throw new Error(`owner: ${owned} handed over`);
      // Leads are a trash resource: the delete moves every lead to the trash (one UPDATE, api/crud/trash.ts trashMany);
      // the photos stay until the purge.
      await timed('delete (filter)', { action: 'delete', filter });
      const left = Number((await t.db('leads').where('ld_accountid', accountId).whereNull('ld_deleted_at').count({ n: '*' }).first())?.n);
      const entries = Number((await t.db('history_by_record').where({ h_table: 'leads', h_action: 'delete' }).count({ n: '*' }).first())?.n);
      if (left !== 0 || entries !== total) throw new Error(`delete: ${left} leads left live, ${entries} delete entries`);
    } finally {
      await t.close();
    }
  }
}

let kinds: ('pglite' | 'postgres')[] = ['pglite'];
if (process.env.BENCH_DATABASE_URL) {
  process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  kinds.push('postgres');
}
if (values.only) kinds = kinds.filter((k) => k === values.only);
console.log(`Leads' bulk benchmark: ${total} leads, ${runs} run(s) per database`);
for (const kind of kinds) await bench(kind);
process.exit(0);
