import type { Server } from 'node:http';
import { loadConfig } from './config.js';
import { createApp } from './app.js';
import { ensureRootUser, openDatabase, prepareDatabase } from './db/bootstrap.js';
import { createLogger } from './log.js';
import { createShutdown, onSignals } from './shutdown.js';
import { pruneTokens } from './services/tokens.js';
import type { StorageDriver } from './storage/index.js';

const config = loadConfig();
const logger = createLogger(config);
const db = openDatabase(config);
await prepareDatabase(db);
await ensureRootUser(db, config, (m) => logger.info(m));
const { app, context, metrics } = createApp({ db, config, logger });
// Expired rate-limit windows and old one-time tokens are deleted every 10 minutes (sessions clean themselves).
const prune = setInterval(() => {
  void Promise.all([context.limiter.prune(), pruneTokens(db)]).catch((err) => logger.error({ err }, 'prune failed'));
}, 10 * 60 * 1000).unref();

function listening(server: Server, what: string): Promise<Server> {
  return new Promise((resolve) => {
    server.once('listening', () => resolve(server));
    server.once('error', (err) => {
      logger.fatal({ err }, `${what}: cannot listen`);
      process.exit(1);
    });
  });
}

const server = await listening(app.listen(config.port), 'server');
const port = (server.address() as { port: number }).port;
logger.info({ port }, `Leadstage on ${config.publicUrl} (database: ${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/db`})`);
const servers = [server];
if (config.metricsPort) {
  const internal = await metrics.listen(config.metricsPort).catch((err) => {
    logger.fatal({ err }, 'metrics: cannot listen');
    process.exit(1);
  });
  servers.push(internal);
  logger.info({ metricsPort: config.metricsPort }, `metrics on port ${config.metricsPort} (/metrics)`);
}

onSignals(
  createShutdown({
    servers,
    db,
    logger,
    timers: [prune],
    release: async () => {
      await (context.services.storage as StorageDriver | undefined)?.close();
    },
  }),
);
