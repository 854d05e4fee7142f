// Users list with 100,000 users: a page, a deep page, and prefix searches through GET /api/1/users,
// as the admin asks for them (range/sort/filter). npx tsx bench/list-users.ts [--users 100000] [--runs 20]
import { parseArgs } from 'node:util';
import { startApp } from '../test/helpers/app.js';

const { values } = parseArgs({ options: { users: { type: 'string', default: '100000' }, runs: { type: 'string', default: '20' } } });
const users = Number(values.users);
const runs = Number(values.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const kind of process.env.BENCH_DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const)) {
  if (kind === 'postgres') process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const t = await startApp(kind);
  try {
    await t.db.raw(
      `insert into users (u_email, u_first_name, u_last_name)
       select 'user' || g || '@list.example', 'First' || (g % 1000), 'Last' || (g % 777) from generate_series(1, ?) g`,
      [users],
    );
    await t.db.raw('analyze users');
    const root = await t.signedIn('root');
    const cases: Record<string, string> = {
      'first page': '/api/1/users?range=[0,24]&sort=["u_email","ASC"]',
      'page 2000': '/api/1/users?range=[49975,49999]&sort=["u_email","ASC"]',
      'sort by last name': '/api/1/users?range=[0,24]&sort=["u_last_name","DESC"]',
      'search "user12"': '/api/1/users?range=[0,24]&sort=["u_email","ASC"]&filter={"q":"user12"}',
      'search "first9 last7"': '/api/1/users?range=[0,24]&sort=["u_email","ASC"]&filter={"q":"first9 last7"}',
    };
    console.log(`${kind}: ${users} users, ${runs} runs each`);
    for (const [name, url] of Object.entries(cases)) {
      const times: number[] = [];
      let range = '';
      for (let i = 0; i < runs; i++) {
        const s = performance.now();
        const res = await root.get(url);
        times.push(performance.now() - s);
        if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
        range = String(res.headers['content-range']);
      }
      console.log(`  ${name.padEnd(22)} median ${median(times).toFixed(1)} ms  (${range})`);
    }
  } finally {
    await t.close();
  }
}
process.exit(0);
