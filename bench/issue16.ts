// Issue 16's performance goals on PostgreSQL, over 1,000,000 leads (and 1,000,000 users for the generic export):
//   1. export of 1,000,000 leads through HTTP, both exports: the leads' own (GET …/leads/export.csv,
//      api/console/leadExport.ts) and the generic one of every list (api/crud/export.ts, over the users list, which
//      the leads' own route shadows for leads): rows/s (goal ≥ 50,000) and the server's RSS growth (goal < 100 MB),
//      the server a child process, VmRSS sampled every 20 ms;
//   2. bulk update of 100,000 leads by filter (POST …/leads/bulk, one event's leads): ld_is_valid, then ld_ownerid
//      (goal < 10 s each);
//   3. a list page with the trash condition against the same page without it: the list's own SQL (captured from
//      api/crud/list.ts runList, as a process serves it once it knows the account's trashed events) on `leads` (partial
//      indexes `where ld_deleted_at is null`; one event in the trash with 5,000 leads, left out by its id) against the
//      same SQL with the trash conditions taken out on `leads_plain`, a copy of the live leads of the live events
//      without the trash column and with the indexes as they were before the trash (20261122000002), arms alternating,
//      medians (goal: within 10%); also the lead's own condition alone and the anti-join on events (the first page after
//      a delete or a restore).
// The fixture is set-based (one INSERT … SELECT FROM generate_series per table; the history triggers are not fired
// for it: session_replication_role = replica).
// npx tsx bench/issue16.ts [--leads 1000000] [--users 1000000] [--exports 2] [--reps 30] [--parts list,export,bulk] [--keep] [--db name]
// Needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a server where the user may create databases).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadAverage, rssMb } from './support/proc.js';
import { signIn } from './support/session.js';
import { median } from './support/stats.js';

const { values } = parseArgs({
  options: {
    leads: { type: 'string', default: '1000000' },
    users: { type: 'string', default: '1000000' },
    exports: { type: 'string', default: '2' },
    reps: { type: 'string', default: '30' },
    parts: { type: 'string', default: 'list,export,bulk' },
    keep: { type: 'boolean', default: false },
    child: { type: 'string' },
    url: { type: 'string' },
    db: { type: 'string' },
  },
});

const load = loadAverage;

function startServer(url: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', 'api', '--url', url], {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /ready (\d+)/.exec(String(d));
      if (m) resolve({ child, base: `http://127.0.0.1:${m[1]}` });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

async function main() {
  const baseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    console.log('skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server');
    return;
  }
  const totalLeads = Number(values.leads);
  const totalUsers = Number(values.users);
  const name = values.db ?? `ls_bench_i16_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const reuse = Boolean(values.db) && (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!reuse) await admin.query(`create database ${name}`);
  let server: ChildProcess | undefined;
  try {
    const { createKnex } = await import('../api/db/knex.js');
    const { prepareDatabase, upsertUser } = await import('../api/db/bootstrap.js');
    const db = createKnex({ databaseUrl: url.toString() });
    await prepareDatabase(db);
    if (!reuse) {
      const t0 = Date.now();
      await upsertUser(db, { email: 'root@bench.example', password: 'bench-password', role: 'root' });
      const [account] = await db('accounts').insert({ a_name: 'Bench i16' }).returning('a_id');
      await db.raw(`insert into users (u_email, u_first_name, u_last_name) select 'staff' || g || '@bench.example', 'Staff', 'Member ' || g from generate_series(1, 20) g`);
      await db.raw(`insert into account_users (au_accountid, au_userid, au_role) select ?, u_id, 'member' from users where u_email like 'staff%@bench.example'`, [account.a_id]);
      await db.raw(`insert into events (ev_accountid, ev_title, ev_name, ev_access_type) select ?, 'Event ' || g, 'event-' || g, 'open' from generate_series(1, 10) g`, [
        account.a_id,
      ]);
      await db.transaction(async (trx) => {
        await trx.raw('set local session_replication_role = replica');
        await trx.raw(
          `with ev as (select array_agg(ev_id order by ev_name) ids from events where ev_accountid = ?),
                ow as (select array_agg(u_id order by u_email) ids from users where u_email like 'staff%@bench.example')
           insert into leads (ld_accountid, ld_eventid, ld_email, ld_first_name, ld_last_name, ld_ownerid, ld_captured_by, ld_answers,
                              ld_is_valid, ld_transcription_status, ld_source, ld_badge_code, ld_consent_news, ld_captured_at, ld_deleted_at)
           select ?, ev.ids[1 + g % 10], 'lead' || g || '@example.com', 'First' || (g % 1000), 'Last' || (g % 777),
                  ow.ids[1 + (g / 7) % 20], ow.ids[1 + (g / 7) % 20],
                  jsonb_build_object('company', 'Company ' || (g % 5000), 'budget', (g % 10) * 5),
                  g % 10 <> 0,
                  case when g % 97 = 0 then 'pending' when g % 89 = 0 then 'postponed' else 'none' end,
                  (array['registration','scan','card','manual','download'])[1 + g % 5],
                  case when g % 5 = 1 then 'B' || g end, g % 3 = 0,
                  timestamptz '2026-01-01 00:00:00+00' + g * interval '31 seconds',
                  case when g % 500 = 1 then now() end
             from generate_series(1, ?) g, ev, ow`,
          [account.a_id, account.a_id, totalLeads],
        );
        await trx.raw(
          `insert into users (u_email, u_first_name, u_last_name, u_role, u_is_enabled) select 'user' || g || '@bench.example', 'First' || (g % 1000), 'Last' || (g % 777), 'member', g % 9 <> 0 from generate_series(1, ?) g`,
          [totalUsers],
        );
        // An event in the trash with 5,000 leads: what a list page leaves out (by its id, api/models/scope.ts knownTrashed).
        await trx.raw(
          `with ev as (insert into events (ev_accountid, ev_title, ev_name, ev_access_type, ev_deleted_at) values (?, 'Event trashed', 'event-trashed', 'open', now()) returning ev_id)
           insert into leads (ld_accountid, ld_eventid, ld_email, ld_first_name, ld_last_name, ld_source, ld_captured_at)
           select ?, ev.ev_id, 'trashed' || g || '@example.com', 'First' || g, 'Last' || g, 'manual', timestamptz '2026-01-01 00:00:00+00' + g * interval '97 seconds'
             from generate_series(1, 5000) g, ev`,
          [account.a_id, account.a_id],
        );
        // The statistics' counts, which the triggers left out keep (migration 20261128001800).
        await trx.raw('select ls_lead_counts_rebuild()');
      });
      // The list without a trash: the live leads, no trash column, the list's indexes whole (as before 20261126000005).
      await db.raw('create table leads_plain as select * from leads where ld_deleted_at is null and ld_eventid not in (select ev_id from events where ev_deleted_at is not null)');
      await db.raw('alter table leads_plain drop column ld_deleted_at');
      // Every index of leads but its key, a partial one on live leads made whole, none on the trash column.
      const indexes = (await db.raw(`select indexname, indexdef from pg_indexes where tablename = 'leads' and indexname <> 'leads_pkey'`)).rows as {
        indexname: string;
        indexdef: string;
      }[];
      for (const { indexname, indexdef } of indexes) {
        // A covering index keeps its other INCLUDE columns (without one, the copy had no (account, captured) index).
        const def = indexdef.replace(/ WHERE \(ld_deleted_at IS NULL\)$/, '').replace(/ INCLUDE \(([^)]*)\)/, (_m, cols: string) => {
          const kept = cols.split(', ').filter((c) => c !== 'ld_deleted_at');
          return kept.length ? ` INCLUDE (${kept.join(', ')})` : '';
        });
        if (/ld_deleted_at/.test(def)) continue;
        await db.raw(def.replace(` ${indexname} ON public.leads `, ` ${indexname}_plain ON public.leads_plain `));
      }
      await db.raw('alter table leads_plain add primary key (ld_id)');
      for (const table of ['leads', 'leads_plain', 'users', 'events']) await db.raw(`vacuum analyze ${table}`);
      console.log(
        `seeded ${totalLeads.toLocaleString('en')} leads, ${totalUsers.toLocaleString('en')} users and the copy in ${((Date.now() - t0) / 1000).toFixed(1)} s (load ${load()})`,
      );
    }
    const accountId = (await db('accounts').where('a_name', 'Bench i16').first('a_id')).a_id as string;
    const events = (await db('events').where('ev_accountid', accountId).whereNull('ev_deleted_at').orderBy('ev_name').pluck('ev_id')) as string[];
    const owners = (await db('users').where('u_email', 'like', 'staff%@bench.example').orderBy('u_email').pluck('u_id')) as string[];
    const liveLeads = Number((await db('leads_plain').where('ld_accountid', accountId).count({ n: '*' }).first())?.n);
    const allUsers = Number((await db('users').count({ n: '*' }).first())?.n);
    // A reused database: the bulk sets what its leads do not have yet (a change to the same value would be no change).
    const now = (await db('leads').where('ld_eventid', events[0]).whereNull('ld_deleted_at').first('ld_is_valid', 'ld_ownerid')) as { ld_is_valid: boolean; ld_ownerid: string };
    const bulkChanges = { validity: { ld_is_valid: !now.ld_is_valid }, owner: { ld_ownerid: now.ld_ownerid === owners[5] ? owners[6] : owners[5] } };

    const parts = new Set(values.parts.split(','));
    // ---- 3. the list with and without the trash condition (SQL, side by side) -------------------------------------
    if (parts.has('list')) {
      const { leads } = await import('../resources/leads.js');
      const { resourceNamed } = await import('../resources/index.js');
      const { resourceAdapter } = await import('../api/crud/adapter.js');
      const { parseListQuery, runList } = await import('../api/crud/list.js');
      const { knownTrashed, withTrash: trashCondition } = await import('../api/models/scope.js');
      // The anti-join on events as withTrash writes it when the process knows nothing of the trash (no scope).
      const antiJoinCheck = / and not exists \(.*\)$/.exec(trashCondition(db('leads'), leads, 'live').toSQL().sql)?.[0];
      if (!antiJoinCheck) throw new Error('no anti-join in withTrash without a scope');
      const { leadsHooks } = await import('../api/console/leads.js');
      const adapter = resourceAdapter(leads, leadsHooks, resourceNamed);
      const cases: [string, Record<string, unknown>, [string, string]][] = [
        ['everything, newest first', {}, ['ld_captured_at', 'DESC']],
        ['event, newest first', { ld_eventid: events[3] }, ['ld_captured_at', 'DESC']],
        ['invalid, oldest first', { ld_is_valid: false }, ['ld_captured_at', 'ASC']],
        ['source, by last name', { ld_source: 'card' }, ['ld_last_name', 'ASC']],
        ['event + source', { ld_eventid: events[1], ld_source: 'scan' }, ['ld_captured_at', 'DESC']],
      ];
      console.log(`\nlist page (25 rows) with the trash condition vs without it, ${values.reps} runs each, alternating (load ${load()}):`);
      const ratios: number[] = [];
      const ownRatios: number[] = [];
      const antiRatios: number[] = [];
      for (const [label, filter, sort] of cases) {
        const req = { account: { a_id: accountId }, query: { filter: JSON.stringify(filter), sort: JSON.stringify(sort), range: JSON.stringify([0, 24]) } };
        // The page as a process serves it once it knows the account's trashed events (the first page after a delete
        // or a restore looks them up: the anti-join, measured as the fourth arm).
        while (!knownTrashed(db, resourceNamed('events')!, accountId)) await new Promise((r) => setTimeout(r, 10));
        const captured: { sql: string; bindings: unknown[] }[] = [];
        const listen = (q: { sql: string; bindings: unknown[] }) => captured.push(q);
        db.on('query', listen);
        const query = parseListQuery(req as never, leads, 'ld_id');
        await runList(db, () => adapter.query(db, req as never), query, leads, 'ld_id', 10_000);
        db.removeListener('query', listen);
        const pageQuery = captured.find((q) => /limit/i.test(q.sql) && !/count\(/i.test(q.sql))!;
        const withTrash = pageQuery.sql;
        // The event's trash condition (api/models/scope.ts withTrash): the account's trashed events by their ids, the
        // form a process serves once it knows them; it goes with its bound ids.
        const eventCheck = / and "leads"\."ld_eventid" not in \(\$\d+(?:, \$\d+)*\)/;
        if (!eventCheck.test(withTrash)) throw new Error(`no check of the trashed event by its id in: ${withTrash}`);
        const dropped = new Set([...(eventCheck.exec(withTrash)?.[0] ?? '').matchAll(/\$(\d+)/g)].map((m) => Number(m[1]) - 1));
        const without = withTrash
          .replace(/ and "leads"\."ld_deleted_at" is null/g, '')
          .replace(eventCheck, '')
          .replace(/"leads"/g, '"leads_plain"');
        const withoutBindings = pageQuery.bindings.filter((_, i) => !dropped.has(i));
        if (without === withTrash.replace(/"leads"/g, '"leads_plain"') || /deleted_at/.test(without)) throw new Error(`could not take the trash out of: ${withTrash}`);
        const run = async (sql: string, bindings: unknown[]) => {
          const t0 = performance.now();
          await db.raw(sql.replace(/\$\d+/g, '?'), bindings as never);
          return performance.now() - t0;
        };
        // A third arm splits the cost: the lead's own trash condition alone (the partial indexes), without the check of
        // its event; a fourth is the page a process serves before it knows the trashed events (the first after a delete
        // or a restore): the anti-join on events.
        const own = withTrash.replace(eventCheck, '');
        const antiJoin = withTrash.replace(eventCheck, antiJoinCheck);
        const a: number[] = [];
        const b: number[] = [];
        const c: number[] = [];
        const d: number[] = [];
        const arms: [number[], string, unknown[]][] = [
          [a, withTrash, pageQuery.bindings],
          [b, without, withoutBindings],
          [c, own, withoutBindings],
          [d, antiJoin, withoutBindings],
        ];
        for (let i = 0; i < 3; i++) for (const [, sql, bindings] of arms) await run(sql, bindings);
        for (let i = 0; i < Number(values.reps); i++)
          for (let k = 0; k < arms.length; k++) {
            const [times, sql, bindings] = arms[(i + k) % arms.length];
            times.push(await run(sql, bindings));
          }
        const ratio = median(a) / median(b);
        ratios.push(ratio);
        ownRatios.push(median(c) / median(b));
        antiRatios.push(median(d) / median(b));
        console.log(
          `  ${label.padEnd(28)} with ${median(a).toFixed(2)} ms, without ${median(b).toFixed(2)} ms: ratio ${ratio.toFixed(3)}; the lead's own condition alone ${(median(c) / median(b)).toFixed(3)}; with the anti-join ${(median(d) / median(b)).toFixed(3)}`,
        );
        if (label === cases[0][0]) console.log(`    the SQL: ${withTrash}`);
      }
      console.log(
        `  median ratio ${median(ratios).toFixed(3)} (goal ≤ 1.10; load ${load()}); the lead's own condition alone ${median(ownRatios).toFixed(3)}; with the anti-join (a process that does not know the trashed events yet) ${median(antiRatios).toFixed(3)}`,
      );
    }
    await db.destroy();
    if (!parts.has('export') && !parts.has('bulk')) return;

    const api = await startServer(url.toString());
    server = api.child;
    const { cookie, csrf: sessionCsrf } = await signIn(api.base, 'root@bench.example', 'bench-password');

    // ---- 1. exports ------------------------------------------------------------------------------------------------
    const exports: [string, string, number][] = [
      ['leads (leadExport.ts)', `/api/1/accounts/${accountId}/leads/export.csv`, liveLeads],
      ['users (crud/export.ts)', `/api/1/users/export.csv`, allUsers],
    ];
    for (const [label, path, expected] of parts.has('export') ? exports : []) {
      console.log(`\nexport of ${label}, ${expected.toLocaleString('en')} rows, ${values.exports} runs:`);
      const rates: number[] = [];
      const growths: number[] = [];
      for (let i = 0; i < Number(values.exports); i++) {
        const base = rssMb(api.child.pid!);
        let peak = base;
        const sampler = setInterval(() => (peak = Math.max(peak, rssMb(api.child.pid!))), 20);
        const t0 = performance.now();
        const res = await fetch(`${api.base}${path}`, { headers: { Cookie: cookie } });
        let rows = -1; // the header line
        let bytes = 0;
        const decoder = new TextDecoder();
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += chunk.length;
          const text = decoder.decode(chunk, { stream: true });
          for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) rows++;
        }
        const took = (performance.now() - t0) / 1000;
        clearInterval(sampler);
        if (res.status !== 200 || rows !== expected) throw new Error(`export ${label}: status ${res.status}, ${rows} rows`);
        rates.push(rows / took);
        growths.push(peak - base);
        console.log(
          `  run ${i + 1}: ${(bytes / 1024 / 1024).toFixed(1)} MB in ${took.toFixed(2)} s = ${Math.round(rows / took).toLocaleString('en')} rows/s; server RSS ${base.toFixed(0)} → ${peak.toFixed(0)} MB (+${(peak - base).toFixed(1)} MB); load ${load()}`,
        );
      }
      console.log(`  median ${Math.round(median(rates)).toLocaleString('en')} rows/s (goal ≥ 50,000); RSS growth max +${Math.max(...growths).toFixed(1)} MB (goal < 100 MB)`);
    }

    // ---- 2. bulk update of one event's leads by filter -------------------------------------------------------------
    const perEvent = (
      await fetch(`${api.base}/api/1/accounts/${accountId}/leads?filter=${encodeURIComponent(JSON.stringify({ ld_eventid: events[0] }))}&range=[0,0]`, {
        headers: { Cookie: cookie },
      })
    ).headers.get('content-range');
    console.log(`\nbulk update by filter {ld_eventid} (${perEvent}):`);
    for (const [label, changes] of parts.has('bulk') ? Object.entries(bulkChanges) : []) {
      const t0 = performance.now();
      const res = await fetch(`${api.base}/api/1/accounts/${accountId}/leads/bulk`, {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': 'application/json', 'X-CSRF-Token': sessionCsrf },
        body: JSON.stringify({ action: 'update', filter: { ld_eventid: events[0] }, changes }),
      });
      const took = (performance.now() - t0) / 1000;
      const body = (await res.json()) as { count?: number };
      if (res.status !== 200) throw new Error(`bulk ${label}: ${res.status} ${JSON.stringify(body)}`);
      console.log(`  ${label}: ${body.count!.toLocaleString('en')} leads in ${took.toFixed(2)} s (goal < 10 s; load ${load()})`);
    }
  } finally {
    server?.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 1000));
    if (!values.keep) await admin.query(`drop database if exists ${name} with (force)`);
    else console.log(`kept database ${name} (--db ${name} reuses it)`);
    await admin.end();
  }
}

if (values.child === 'api') {
  const { loadConfig } = await import('../api/config.js');
  const { createApp } = await import('../api/app.js');
  const { createHttpServer } = await import('../api/httpServer.js');
  const { openDatabase } = await import('../api/db/bootstrap.js');
  const config = loadConfig({ ...process.env, DATABASE_URL: values.url, LOG_LEVEL: 'silent', SESSION_SECRET: 'bench-'.padEnd(40, 'x'), DATA_DIR: '/tmp/ls-bench-i16' });
  const db = openDatabase(config);
  const { app } = createApp({ db, config, log: () => undefined });
  const server = createHttpServer(app).listen(0, '127.0.0.1', () => console.log(`ready ${(server.address() as { port: number }).port}`));
  process.on('SIGINT', () => process.exit(0));
} else {
  await main();
}
