// knex CLI compatibility: `npx knex --knexfile knexfile.ts migrate:latest`. The app migrates itself on start.
import path from 'node:path';
import { migrationsDir, seedsDir } from './api/db/knex.js';
import ClientPgLite from 'knex-pglite';

const url = process.env.DATABASE_URL;
export default url
  ? { client: 'pg', connection: url, migrations: { directory: migrationsDir }, seeds: { directory: seedsDir } }
  : {
      client: ClientPgLite,
      connection: { filename: path.resolve(process.env.DATA_DIR || './data', 'db') },
      migrations: { directory: migrationsDir },
      seeds: { directory: seedsDir },
    };
