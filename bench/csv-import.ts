// CSV import benchmark: a 100,000-row file through POST /api/1/users/import/csv on a fresh database each run.
// npx tsx bench/csv-import.ts [--rows 100000] [--runs 3]; BENCH_DATABASE_URL=postgres://... also runs on PostgreSQL.
import { parseArgs } from 'node:util';
import crypto from 'node:crypto';
import { startApp } from '../test/helpers/app.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '100000' }, runs: { type: 'string', default: '3' } } });
const rows = Number(values.rows);
const runs = Number(values.runs);

function csv(n: number, salt: string): Buffer {
  const lines = ['email,first name,last name,account,role'];
  for (let i = 0; i < n; i++) lines.push(`user${i}.${salt}@bench.example,First${i},Last${i},${i % 3 === 0 ? 'Bench Account' : ''},${i % 9 === 0 ? 'superadmin' : ''}`);
  return Buffer.from(lines.join('\n'));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function bench(kind: 'pglite' | 'postgres') {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = await startApp(kind);
    try {
      await t.account('Bench Account');
      const root = await t.signedIn('root');
      const body = csv(rows, crypto.randomBytes(3).toString('hex'));
      const start = performance.now();
      const res = await root.raw('post', '/api/1/users/import/csv').attach('file', body, { filename: 'bench.csv', contentType: 'text/csv' });
      const ms = performance.now() - start;
      if (res.status !== 200 || res.body.created !== rows) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      times.push(ms);
      console.log(`  ${kind} run ${r + 1}: ${rows} rows in ${(ms / 1000).toFixed(2)} s (${Math.round(rows / (ms / 1000))} rows/s), file ${(body.length / 1e6).toFixed(1)} MB`);
    } finally {
      await t.close();
    }
  }
  const m = median(times);
  console.log(`${kind}: median ${(m / 1000).toFixed(2)} s for ${rows} rows = ${Math.round(rows / (m / 1000))} rows/s (${runs} runs)`);
  return m;
}

const kinds: ('pglite' | 'postgres')[] = ['pglite'];
if (process.env.BENCH_DATABASE_URL) {
  process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  kinds.push('postgres');
}
console.log(`CSV import benchmark: ${rows} rows, ${runs} runs per database`);
for (const kind of kinds) await bench(kind);
process.exit(0);
