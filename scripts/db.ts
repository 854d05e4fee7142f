// npm run db:migrate | db:rollback [-- --all [--yes]] | db:seed | db:seed:demo
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import { prepareDatabase } from '../api/db/bootstrap.js';
import { appliedMigrations, isDemoSeed, migrateLatest, rollbackOne, runSeeds } from '../api/db/migrationSource.js';
import { createStorageDriver } from '../api/storage/index.js';
import { startupConfig, startupDatabase } from '../api/startup.js';
import { CliError, runCli } from './lib/cli.js';
import { confirm } from './lib/prompt.js';

const USAGE = `usage: tsx scripts/db.ts migrate | rollback [--all [--yes]] | seed | seed-demo
  rollback undoes the last applied migration; --all undoes every one (all data is lost), after confirmation or --yes.`;
const COMMANDS = ['migrate', 'rollback', 'seed', 'seed-demo'];

/** rollback: one migration, or with --all every one once confirmed; prints each name undone. */
async function rollback(db: Knex, all: boolean, yes: boolean): Promise<void> {
  const applied = await appliedMigrations(db);
  if (applied.length === 0) return console.log('nothing to undo: no migration is applied');
  if (all && !yes && !(await confirm(`Undo every applied migration (${applied.length}), deleting every table with its data?`))) throw new CliError('cancelled: nothing undone', 1);
  for (let i = 0; i < (all ? applied.length : 1); i++) {
    const name = await rollbackOne(db);
    if (!name) break;
    console.log(`undone: ${name}`);
  }
}

await runCli(async () => {
  const { values, positionals } = (() => {
    try {
      return parseArgs({ allowPositionals: true, options: { all: { type: 'boolean' }, yes: { type: 'boolean', short: 'y' } } });
    } catch (err) {
      throw new CliError(`${(err as Error).message}\n${USAGE}`);
    }
  })();
  const command = positionals[0];
  if (positionals.length !== 1 || !COMMANDS.includes(command)) throw new CliError(USAGE);
  if ((values.all || values.yes) && command !== 'rollback') throw new CliError(`--all and --yes belong to rollback\n${USAGE}`);
  if (values.all && !values.yes && !process.stdin.isTTY)
    throw new CliError('--all undoes every migration and deletes every table with its data: add --yes to confirm (no terminal to ask on)');
  const config = startupConfig();
  const db = startupDatabase(config, `db:${command === 'seed-demo' ? 'seed:demo' : command}`);
  try {
    if (command === 'migrate') {
      const names = await migrateLatest(db);
      console.log(names.length ? `migrated: ${names.join(', ')}` : 'already at the latest migration');
    } else if (command === 'rollback') {
      await rollback(db, values.all ?? false, values.yes ?? false);
    } else if (command === 'seed') {
      await migrateLatest(db);
      console.log('seeded:', (await runSeeds(db, (f) => f.startsWith('01_'))).join(', '));
    } else {
      await prepareDatabase(db); // missing grants only: ops' grant changes stay
      const storage = createStorageDriver(config);
      try {
        const started = Date.now();
        const ran = await runSeeds(db, isDemoSeed, { storage, sessionSecret: config.sessionSecret, publicUrl: config.publicUrl });
        console.log('seeded:', ran.join(', '), `(${((Date.now() - started) / 1000).toFixed(1)} s)`);
      } finally {
        await storage.close();
      }
    }
  } finally {
    await db.destroy();
  }
});
