// npm run user:create -- --email E [--password P] [--role root|superadmin|admin|member] [--first F] [--last L]
import { openDatabase, prepareDatabase } from '../api/db/bootstrap.js';
import { lockDatabase, startupConfig } from '../api/startup.js';
import { runCli } from './lib/cli.js';
import { readPassword } from './lib/prompt.js';
import { USER_CREATE_USAGE, checkPassword, parseUserCreateArgs, userCreate } from './lib/userCreate.js';

await runCli(async () => {
  const options = parseUserCreateArgs(process.argv.slice(2));
  if (!options) return console.log(USER_CREATE_USAGE);
  const config = startupConfig();
  const check = (password: string) => checkPassword(password, config.passwordMinLength);
  if (options.password !== undefined) check(options.password);
  // The lock before the prompt (no typing a password for a database in use), the database after it: PGlite
  // starting in the background would hold the terminal.
  lockDatabase(config, 'user:create');
  const password = options.password ?? (await readPassword(check));
  const db = openDatabase(config);
  try {
    await prepareDatabase(db);
    console.log(await userCreate(db, { ...options, password }, config.passwordMinLength));
  } finally {
    await db.destroy();
  }
});
