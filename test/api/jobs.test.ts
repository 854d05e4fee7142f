import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Knex } from 'knex';
import { describeEachDb, seedPgliteDir } from '../helpers/db.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { createKnex } from '../../api/db/knex.js';
import { prepareDatabase } from '../../api/db/bootstrap.js';
import { createJobs, installJobSchema, type Jobs } from '../../api/jobs/index.js';
import { enqueueMail, MAIL_JOB, registerMailJob } from '../../api/mail/outbox.js';
import type { Mailer, OutgoingMail } from '../../api/mail/mailer.js';
import type { AppContext } from '../../api/context.js';
import { SWEEP_JOB, TRASH_PURGE_JOB } from '../../api/jobs/timed.js';
import { loadConfig } from '../../api/config.js';

const TOKEN = 'jobs-metrics-token-0123456789';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const silent = { log: () => undefined };

/** The state and attempts of a job, read from pg-boss' table. */
async function jobRow(db: Knex, id: string): Promise<{ state: string; retry_count: number } | undefined> {
  return (await db.raw('select state, retry_count from pgboss.job where id = ?', [id])).rows[0];
}

/**
 * The durable job queue (api/jobs/, pg-boss over the app's pool): each job once across processes, retries with
 * backoff, jobs kept across a restart, timed jobs once per period across processes, a graceful stop, the counts in
 * /metrics and GET /api/1/jobs. "Two processes" are two queue instances: on PostgreSQL each over its own knex pool on
 * the same database; on PGlite (one connection, one process) two instances over the one knex.
 */
describeEachDb('job queue', (kind) => {
  let t: TestApp;
  const extra: { jobs: Jobs[]; knexes: Knex[] } = { jobs: [], knexes: [] };

  /** Another "process": a pool of its own on PostgreSQL, the same PGlite otherwise. */
  function otherDb(): Knex {
    if (kind === 'pglite') return t.db;
    const k = createKnex({ databaseUrl: t.url! });
    extra.knexes.push(k);
    return k;
  }
  function instance(db: Knex): Jobs {
    const jobs = createJobs(db, t.config, silent);
    extra.jobs.push(jobs);
    return jobs;
  }

  beforeAll(async () => {
    t = await startApp(kind, { metricsToken: TOKEN });
  });
  afterAll(async () => {
    for (const j of extra.jobs) await j.stop(0);
    for (const k of extra.knexes) await k.destroy();
    await t?.close();
  });

  it('a job runs once with two processes working the same queue', async () => {
    const a = instance(t.db);
    const b = instance(otherDb());
    const ran: { by: string; n: number }[] = [];
    const handler = (by: string) => async (data: Record<string, unknown>) => {
      await sleep(5);
      ran.push({ by, n: data.n as number });
    };
    a.work('test.once', handler('a'));
    b.work('test.once', handler('b'));
    await Promise.all([a.start(), b.start()]);
    const ids = [];
    for (let n = 0; n < 30; n++) ids.push(await (n % 2 ? a : b).send('test.once', { n }));
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    await expect.poll(() => ran.length, { timeout: 20_000, interval: 100 }).toBe(30);
    await sleep(1200); // two more polls of each worker: nothing runs twice
    expect(ran.map((r) => r.n).sort((x, y) => x - y)).toEqual([...Array(30).keys()]);
    for (const id of ids) expect((await jobRow(t.db, id!))?.state).toBe('completed');
    // Neither registered in pg-boss's instance registry, whose "nurse" would keep an event-loop delay monitor on a
    // 20 ms timer running in each process (an idle server's largest cost; bench/README.md, "Server CPU per request").
    expect(Number((await t.db.raw('select count(*)::int as n from pgboss.instance')).rows[0].n)).toBe(0);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('a mail the relay refuses twice is retried with backoff, then delivered once', async () => {
    const sent: OutgoingMail[] = [];
    const tries: number[] = [];
    const flaky: Mailer = {
      send: () => Promise.reject(new Error('not used')),
      async sendMail(mail) {
        tries.push(Date.now());
        if (tries.length <= 2) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
        sent.push(mail);
        return { to: mail.to, subject: mail.subject };
      },
    };
    const jobs = instance(t.db);
    const context = { ...t.context, jobs, mailer: flaky, log: () => undefined } as AppContext;
    registerMailJob(context);
    const mail: OutgoingMail = { to: 'flaky@example.com', subject: 'Hello', html: '<p>Hi</p>', text: 'Hi', label: 'test' };
    const id = await enqueueMail(context, mail);
    await jobs.start();
    await expect.poll(() => sent.length, { timeout: 20_000, interval: 100 }).toBe(1);
    expect(sent[0]).toEqual(mail);
    expect(tries).toHaveLength(3);
    // backoff: the first retry waits at least JOBS_RETRY_DELAY_SECONDS (1 s in tests), the second at least as long
    expect(tries[1] - tries[0]).toBeGreaterThanOrEqual(900);
    expect(tries[2] - tries[1]).toBeGreaterThanOrEqual(900);
    // The queue marks the job completed once the handler has answered: a moment after the mail went.
    await expect.poll(async () => (await jobRow(t.db, id!))?.state).toBe('completed');
    expect(await jobRow(t.db, id!)).toMatchObject({ state: 'completed', retry_count: 2 });
    await jobs.stop();
  });

  it('a job that uses up its retries stays failed, counted (and a send with a live singletonKey is refused)', async () => {
    const jobs = instance(t.db);
    jobs.work('test.broken', async () => {
      throw new Error('always');
    });
    const id = await jobs.send('test.broken', {}, { retryLimit: 0, singletonKey: 'only' });
    expect(await jobs.send('test.broken', {}, { retryLimit: 0, singletonKey: 'only' })).toBeNull();
    expect(await jobs.drain()).toBe(1);
    expect((await jobRow(t.db, id!))?.state).toBe('failed');
    expect((await jobs.counts()).byName['test.broken']).toEqual({ waiting: 0, failed: 1 });
  });

  it('a queue made by an earlier start takes the retries of the configuration it is started with now', async () => {
    const before = instance(t.db);
    before.work('test.reconfigured', async () => {
      throw new Error('always');
    });
    await before.send('test.reconfigured', {});
    expect(await before.drain()).toBe(1);
    expect((await before.counts()).byName['test.reconfigured']).toEqual({ waiting: 1, failed: 0 }); // a retry is due later
    const after = createJobs(t.db, { ...t.config, jobs: { ...t.config.jobs, retryLimit: 0 } }, silent);
    extra.jobs.push(after);
    after.work('test.reconfigured', async () => {
      throw new Error('always');
    });
    await after.send('test.reconfigured', {});
    expect(await after.drain()).toBe(1);
    expect((await after.counts()).byName['test.reconfigured']).toEqual({ waiting: 1, failed: 1 });
  });

  it('a job sent for later waits (counted), and is not run before its time', async () => {
    const jobs = instance(t.db);
    const ran: unknown[] = [];
    jobs.work('test.later', async (data) => void ran.push(data));
    await jobs.send('test.later', { x: 1 }, { startAfter: new Date(Date.now() + 1500) });
    expect(await jobs.drain()).toBe(0);
    expect((await jobs.counts()).byName['test.later']).toEqual({ waiting: 1, failed: 0 });
    await sleep(1600);
    expect(await jobs.drain()).toBe(1);
    expect(ran).toEqual([{ x: 1 }]);
  });

  it('a timed job runs once per period across two processes', async () => {
    const a = instance(t.db);
    const b = instance(otherDb());
    let runs = 0;
    for (const j of [a, b]) {
      j.work('test.tick', async () => void runs++);
      j.schedule('test.tick', 2);
    }
    const began = Date.now();
    await Promise.all([a.start(), b.start()]);
    await sleep(5500);
    await Promise.all([a.stop(), b.stop()]);
    const slots = (await t.db.raw(`select singleton_on, count(*)::int as n, bool_and(state = 'completed') as done from pgboss.job where name = 'test.tick' group by 1`)).rows as {
      n: number;
      done: boolean;
    }[];
    const elapsed = (Date.now() - began) / 1000;
    // one job per 2-second slot that began while a process ticked (3 or 4 in 5.5 s), each run once
    expect(slots.length).toBeGreaterThanOrEqual(3);
    expect(slots.length).toBeLessThanOrEqual(Math.ceil(elapsed / 2) + 1);
    expect(slots.every((s) => s.n === 1)).toBe(true);
    expect(runs).toBe(slots.filter((s) => s.done).length);
    expect(runs).toBeGreaterThanOrEqual(slots.length - 1);
  });

  it('stop() lets a running job finish before it answers', async () => {
    const jobs = instance(t.db);
    let finished = false;
    let started = false;
    jobs.work('test.slow', async () => {
      started = true;
      await sleep(800);
      finished = true;
    });
    await jobs.start();
    const id = await jobs.send('test.slow', {});
    await expect.poll(() => started, { timeout: 10_000, interval: 50 }).toBe(true);
    await jobs.stop(5000);
    expect(finished).toBe(true);
    expect((await jobRow(t.db, id!))?.state).toBe('completed');
  });

  it("the app's timed jobs do their work when they run: the sweep deletes an expired session, the purge an old trashed record", async () => {
    const expired = await t.signedIn('member');
    const live = await t.signedIn('member');
    await t
      .db('sessions')
      .where('s_userid', expired.userId)
      .update({ s_expires_at: new Date(Date.now() - 1000) });
    const account = await t.account(`Jobs ${Date.now()}`);
    const [old] = await t
      .db('lists')
      .insert({ l_accountid: account.a_id, l_title: 'Old', l_name: `old-${Date.now()}`, l_deleted_at: new Date(Date.now() - (t.config.trashDays + 1) * 86400_000) })
      .returning('l_id');
    expect(await t.context.jobs.send(SWEEP_JOB, {})).toBeTruthy();
    expect(await t.context.jobs.send(TRASH_PURGE_JOB, {})).toBeTruthy();
    expect(await t.context.jobs.drain()).toBe(2);
    expect(await t.db('sessions').where('s_userid', expired.userId).first()).toBeUndefined();
    expect(await t.db('sessions').where('s_userid', live.userId).first()).toBeDefined();
    expect(await t.db('lists').where('l_id', old.l_id).first()).toBeUndefined();
  });

  it('the app registers mail and the timed work, and shows the counts: GET /api/1/jobs (root only) and /metrics', async () => {
    await t.context.jobs.send('test.unworked', { a: 1 });
    await t.context.jobs.send('test.unworked', { a: 2 });
    const root = await t.signedIn('root');
    const res = await root.get('/api/1/jobs');
    expect(res.status).toBe(200);
    expect(res.body.byName).toMatchObject({ [MAIL_JOB]: { waiting: 0, failed: 0 }, [SWEEP_JOB]: { waiting: 0 }, [TRASH_PURGE_JOB]: { waiting: 0 } });
    expect(res.body.byName['test.unworked']).toEqual({ waiting: 2, failed: 0 });
    expect(res.body.waiting).toBeGreaterThanOrEqual(2);
    expect(res.body.failed).toBeGreaterThanOrEqual(1); // test.broken above
    const member = await t.signedIn('member');
    expect((await member.get('/api/1/jobs')).status).toBe(403);
    expect((await t.client().get('/api/1/jobs')).status).toBe(401);

    const metrics = await request(t.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('jobs_waiting{name="test.unworked"} 2');
    expect(metrics.text).toContain('jobs_failed{name="test.broken"} 1');
    expect(metrics.text).toContain(`jobs_waiting{name="${MAIL_JOB}"} 0`);
  });
});

describe('job queue: a restart', () => {
  it.each(process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'])('%s: a job waiting when the process stops runs after it starts again', async (kind) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-jobs-'));
    const config = loadConfig({ DATA_DIR: dir, SESSION_SECRET: 's'.repeat(40), JOBS_POLL_MS: '500' });
    let t: TestApp | undefined;
    // PGlite: a data directory closed and opened again (the template's copy when npm test made one); PostgreSQL: two
    // pools one after the other on one database.
    const open = async (): Promise<Knex> => {
      if (kind === 'postgres') return createKnex({ databaseUrl: t!.url! });
      const db = createKnex({ pgliteDir: path.join(dir, 'db') });
      return db;
    };
    try {
      if (kind === 'postgres') t = await startApp('postgres');
      else seedPgliteDir(path.join(dir, 'db'));
      const first = await open();
      await prepareDatabase(first);
      const before = createJobs(first, config, silent);
      before.work('test.restart', async () => {
        throw new Error('this process never gets to it');
      });
      const id = await before.send('test.restart', { n: 42 });
      await before.stop();
      await first.destroy();

      const second = await open();
      const after = createJobs(second, config, silent);
      const ran: unknown[] = [];
      after.work('test.restart', async (data) => void ran.push(data));
      await after.start();
      await expect.poll(() => ran, { timeout: 10_000, interval: 100 }).toEqual([{ n: 42 }]);
      await after.stop();
      expect((await jobRow(second, id!))?.state).toBe('completed');
      await second.destroy();
    } finally {
      await t?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('job queue: the schema', () => {
  it('two processes starting at once on a fresh PostgreSQL database: one installs the queue schema, the other finds it', async () => {
    const base = new URL(process.env.TEST_DATABASE_URL!);
    const name = `ls_jobs_${Date.now().toString(36)}`;
    const admin = createKnex({ databaseUrl: base.toString() });
    await admin.raw(`create database ${name}`);
    const url = new URL(base.toString());
    url.pathname = `/${name}`;
    const [a, b] = [createKnex({ databaseUrl: url.toString() }), createKnex({ databaseUrl: url.toString() })];
    try {
      expect((await Promise.all([installJobSchema(a), installJobSchema(b)])).sort()).toEqual([false, true]);
      expect((await a.raw('select count(*)::int as n from pgboss.version')).rows[0].n).toBe(1);
      expect(await installJobSchema(b)).toBe(false);
    } finally {
      await Promise.all([a.destroy(), b.destroy()]);
      await admin.raw(`drop database ${name}`);
      await admin.destroy();
    }
  });
});
