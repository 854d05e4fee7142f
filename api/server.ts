import { startupConfig, startupDatabase } from './startup.js';
import { createApp } from './app.js';
import { ensureRootUser, prepareDatabase } from './db/bootstrap.js';
import { pruneTokens } from './services/tokens.js';
import { pruneSessions } from './middleware/session.js';

// A stray rejection (a library's un-awaited promise) is logged; the process keeps serving rather than dying.
process.on('unhandledRejection', (reason) => console.error('unhandled rejection:', reason));

const config = startupConfig();
const db = startupDatabase(config, 'server');
await prepareDatabase(db);
await ensureRootUser(db, config, (m) => console.log(m));
const { app, context } = createApp({ db, config });
// Expired sessions, rate-limit windows and old one-time tokens are deleted every 10 minutes.
setInterval(() => {
  void Promise.all([pruneSessions(db), context.limiter.prune(), pruneTokens(db)]).catch((err) => console.error('prune failed:', err));
}, 10 * 60 * 1000).unref();
const server = app.listen(config.port, () => {
  console.log(`Leadstage on ${config.publicUrl} (database: ${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/db`})`);
});

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`${signal}: closing`);
  server.close();
  await db.destroy().catch(() => undefined);
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
