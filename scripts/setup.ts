// npm run setup: what a deployment needs once, before its app processes start (docker compose runs it as `setup`,
// so scaled replicas do not race to create the same tables and root user): the database migrated with its default
// permission matrix and first root user, and with S3 storage the bucket and its CORS rule for PUBLIC_URL. Safe to rerun.
import { loadConfig } from '../api/config.js';
import { ensureRootUser, firstRootNotice, openDatabase, prepareDatabase } from '../api/db/bootstrap.js';
import { ensureBucket } from '../api/storage/bucket.js';

const config = loadConfig();
const db = openDatabase(config);
try {
  await prepareDatabase(db);
  const firstRoot = await ensureRootUser(db, config);
  console.log('database ready');
  if (firstRoot) console.log(firstRootNotice(firstRoot, `${config.publicUrl}/login`));
  if (config.storage.driver === 's3') {
    const { created } = await ensureBucket(config);
    console.log(`bucket ${config.storage.s3.bucket} ${created ? 'created' : 'exists'}; CORS allows ${new URL(config.publicUrl).origin}`);
  }
} catch (err) {
  console.error('setup failed:', (err as Error).message);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
