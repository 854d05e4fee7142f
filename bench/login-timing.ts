// Login timing: an unknown e-mail and a wrong password for a known one should take about as long
// (both verify an argon2id hash), so the answer time does not tell which e-mails exist.
// npx tsx bench/login-timing.ts [--runs 40]
import { parseArgs } from 'node:util';
import { startApp } from '../test/helpers/app.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '40' } } });
const runs = Number(values.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const t = await startApp('pglite', { rateLimit: { loginPerEmail: 1e9, loginPerIp: 1e9, mailPerEmail: 5, windowSeconds: 900 } });
try {
  await t.user('known@bench.example');
  const c = t.client();
  await c.get('/api/1/auth/me');
  const time = async (email: string) => {
    const s = performance.now();
    const r = await c.post('/api/1/auth/web', { u_email: email, u_password: 'not-the-password' });
    if (r.status !== 401) throw new Error(`expected 401, got ${r.status}`);
    return performance.now() - s;
  };
  await time('warmup@bench.example');
  const unknown: number[] = [];
  const wrong: number[] = [];
  for (let i = 0; i < runs; i++) {
    unknown.push(await time(`nobody${i}@bench.example`));
    wrong.push(await time('known@bench.example'));
  }
  const mu = median(unknown);
  const mw = median(wrong);
  console.log(`unknown e-mail: median ${mu.toFixed(1)} ms; wrong password: median ${mw.toFixed(1)} ms; ratio ${(mu / mw).toFixed(2)} (${runs} runs each)`);
} finally {
  await t.close();
}
process.exit(0);
