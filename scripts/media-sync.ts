// npm run media:sync -- --url <server> --code <player code> --dir <folder> [--serve <port>] [--host 0.0.0.0] [--interval 60]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CliError, runCli } from './lib/cli.js';
import { startMediaServer, syncMedia, SyncError, type SyncReport } from './lib/mediaSync.js';

/**
 * Local media sync (account-console.md: settings, "Local media sync"; scripts/lib/mediaSync.ts does the work):
 * without --serve, one sync of the folder and exit (0 when everything is in place, 1 when a file could not be
 * fetched or checked); with --serve, the folder is served as the player's local media server on that port
 * (set `ls_local_server_url` to its address) and synced again every --interval seconds.
 */
const USAGE = `usage: npm run media:sync -- --url <server> --code <player code> --dir <folder> [--serve <port>] [--host 0.0.0.0] [--interval 60]`;

const line = (r: SyncReport) =>
  r.status === 'not_modified'
    ? `nothing changed (${r.kept} file(s))`
    : `${r.downloaded.length} downloaded${r.resumed.length ? ` (${r.resumed.length} resumed)` : ''}, ${r.kept} kept, ${r.removed.length} removed${r.failed.length ? `, ${r.failed.length} FAILED` : ''}`;

await runCli(async () => {
  const { values } = (() => {
    try {
      return parseArgs({
        options: {
          url: { type: 'string' },
          code: { type: 'string' },
          dir: { type: 'string' },
          serve: { type: 'string' },
          host: { type: 'string', default: '0.0.0.0' },
          interval: { type: 'string', default: '60' },
          help: { type: 'boolean', short: 'h' },
        },
      });
    } catch (err) {
      throw new CliError(`${(err as Error).message}\n${USAGE}`);
    }
  })();
  if (values.help) return console.log(USAGE);
  if (!values.url || !values.code || !values.dir) throw new CliError(`--url, --code and --dir are required\n${USAGE}`);
  let server: URL;
  try {
    server = new URL(values.url);
    if (server.protocol !== 'http:' && server.protocol !== 'https:') throw new Error();
  } catch {
    throw new CliError(`--url must be an http(s) address (got "${values.url}")\n${USAGE}`);
  }
  const interval = Number(values.interval);
  if (!/^\d+$/.test(values.interval) || interval < 5 || interval > 86_400) throw new CliError(`--interval must be a whole number of seconds from 5 to 86400\n${USAGE}`);
  const port = values.serve === undefined ? undefined : Number(values.serve);
  if (values.serve !== undefined && (!/^\d+$/.test(values.serve) || port! > 65535)) throw new CliError(`--serve must be a port from 0 to 65535\n${USAGE}`);
  const options = {
    url: server.origin,
    code: values.code.trim().toUpperCase(),
    dir: path.resolve(values.dir),
    log: (l: string) => console.log(`${new Date().toISOString()} ${l}`),
  };

  if (port === undefined) {
    const report = await syncMedia(options);
    console.log(line(report));
    for (const f of report.failed) console.error(`  ${f.as_id}: ${f.reason}`);
    if (report.failed.length) process.exitCode = 1;
    return;
  }

  const media = await startMediaServer({ dir: options.dir, port, host: values.host });
  console.log(
    `Local media server at ${media.url} (set the account's local server URL to this machine's address and port ${media.port}); syncing every ${interval} s. Ctrl-C stops.`,
  );
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  const cycle = async () => {
    try {
      const report = await syncMedia(options);
      await media.reload();
      media.setLastError(report.failed.length ? report.failed.map((f) => f.reason).join('; ') : null);
      console.log(`${new Date().toISOString()} sync: ${line(report)}`);
    } catch (e) {
      // The server may be away (the show floor's internet): keep serving what the folder has, try again later.
      const message = e instanceof SyncError || e instanceof TypeError ? (e as Error).message : String(e);
      media.setLastError(message);
      console.error(`${new Date().toISOString()} sync failed: ${message}`);
    }
    if (!stopping) timer = setTimeout(cycle, interval * 1000);
  };
  await cycle();
  const stop = () => {
    stopping = true;
    clearTimeout(timer);
    void media.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
});
