// npm run db:migrate | db:rollback | db:seed | db:seed:demo
import { loadConfig } from '../api/config.js';
import { openDatabase, prepareDatabase } from '../api/db/bootstrap.js';
import { migrateLatest, rollback, runSeeds } from '../api/db/migrationSource.js';

const command = process.argv[2];
const config = loadConfig();
const db = openDatabase(config);
try {
  if (command === 'migrate') {
    await migrateLatest(db);
    console.log('migrated to latest');
  } else if (command === 'rollback') {
    await rollback(db, process.argv.includes('--all'));
    console.log('rolled back');
  } else if (command === 'seed') {
    await migrateLatest(db);
    console.log('seeded:', (await runSeeds(db, (f) => f.startsWith('01_'))).join(', '));
  } else if (command === 'seed-demo') {
    await prepareDatabase(db); // the matrix only if the table is empty: ops' grant changes stay
    console.log('seeded:', (await runSeeds(db, (f) => f.startsWith('02_'))).join(', '));
  } else {
    console.error('usage: tsx scripts/db.ts migrate|rollback [--all]|seed|seed-demo');
    process.exitCode = 2;
  }
} finally {
  await db.destroy();
}
