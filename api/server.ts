import type { Server } from 'node:http';
import { startupConfig, startupDatabase } from './startup.js';
import { createApp } from './app.js';
import { ensureRootUser, firstRootNotice, prepareDatabase } from './db/bootstrap.js';
import { createLogger, flushLogs } from './log.js';
import { warmManifests } from './services/player.js';
import { createShutdown, onSignals } from './shutdown.js';
import type { StorageDriver } from './storage/index.js';
import { conversationEventsFor } from './services/conversationEvents.js';
import { keepIdleConnections } from './keepAlive.js';
import { createHttpServer } from './httpServer.js';
import { limitHeapGrowth } from './heap.js';

const config = startupConfig();
limitHeapGrowth(config.heapGrowingPercent);
const logger = createLogger(config);
// A stray rejection (a library's un-awaited promise) is logged; the process keeps serving rather than dying.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
const db = startupDatabase(config, 'server', (m) => logger.warn(m));
const { grantsAdded } = await prepareDatabase(db);
// A database seeded before a permission group existed gets that group's default grants (the rest stay as ops set them).
if (grantsAdded.length) logger.info({ grants: grantsAdded.map((g) => `${g.pg_role}:${g.pg_group}=${g.pg_bits}`) }, `added ${grantsAdded.length} default permission grants`);
const firstRoot = await ensureRootUser(db, config);
const { app, context, metrics } = createApp({ db, config, logger });
// The job queue's workers and timed jobs (api/jobs/): mail, the sweeps every SWEEP_MINUTES and the trash purge every
// TRASH_PURGE_MINUTES, each run once across all processes.
await context.jobs.start();

function listening(server: Server, what: string): Promise<Server> {
  return new Promise((resolve) => {
    server.once('listening', () => resolve(server));
    server.once('error', (err) => {
      logger.fatal({ err }, `${what}: cannot listen`);
      process.exit(1);
    });
  });
}

const server = await listening(keepIdleConnections(createHttpServer(app).listen(config.port)), 'server');
const port = (server.address() as { port: number }).port;
logger.info({ port }, `Leadstage on ${config.publicUrl} (database: ${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/db`})`);
// The first root user's generated password is for the person starting the server: plain text on stderr, once,
// whatever the log level, outside the JSON log stream on stdout, and last, below the build's and the start's lines
// (which the log batches: written out first).
flushLogs();
if (firstRoot) console.error(firstRootNotice(firstRoot, `${config.publicUrl}/login`));
// The players that were polling before this start find their manifests ready (api/services/player.ts).
warmManifests(context.db).then(
  (built) => built && logger.info({ manifests: built }, `player manifests of ${built} codes seen lately built`),
  (err: unknown) => logger.warn({ err }, 'building the player manifests at start failed'),
);
const servers = [server];
if (config.metricsPort) {
  const internal = await metrics.listen(config.metricsPort).catch((err) => {
    logger.fatal({ err }, 'metrics: cannot listen');
    process.exit(1);
  });
  servers.push(internal);
  logger.info({ metricsPort: config.metricsPort }, `metrics on port ${config.metricsPort} (/metrics)`);
}

const shutdown = createShutdown({
  servers,
  db,
  logger,
  // Running jobs get the requests' grace to finish; what is still running then goes back to the queue (retried).
  stopJobs: (graceMs) => context.jobs.stop(graceMs),
  release: async () => {
    await (context.services.storage as StorageDriver | undefined)?.close();
  },
});
// Open event streams (conversations) would hold the shutdown for its whole grace period: they end first, and the
// browsers' EventSource reconnects to another process.
onSignals((signal) => {
  conversationEventsFor(context.db).endAll();
  shutdown(signal);
});
