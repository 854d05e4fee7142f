import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The production build (npm run build:server) compiled into a scratch directory inside the repo, as dist/ would be
// (--noCheck: emit only; npm run typecheck checks the types).
const root = path.resolve(import.meta.dirname, '..', '..');
const out = path.join(root, '.test-results', `build-${process.pid}`);
const load = async <T>(file: string) => (await import(pathToFileURL(path.join(out, file)).href)) as T;

describe('compiled server (tsconfig.build.json)', () => {
  let db: Knex | undefined;
  beforeAll(() => {
    execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json'), '--outDir', out, '--noCheck'], {
      cwd: root,
      stdio: 'pipe',
    });
  }, 120_000);
  afterAll(async () => {
    await db?.destroy();
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('emits JavaScript for the server, the CLI scripts, migrations and seeds, and nothing of the admin or tests', () => {
    for (const file of ['api/server.js', 'scripts/user-create.js', 'scripts/db.js', 'scripts/setup.js', 'seeds/01_roles.js']) {
      expect(fs.existsSync(path.join(out, file)), file).toBe(true);
    }
    const sources = fs.readdirSync(path.join(root, 'migrations')).filter((f) => f.endsWith('.ts'));
    expect(fs.readdirSync(path.join(out, 'migrations')).sort()).toEqual(sources.map((f) => f.replace(/\.ts$/, '.js')).sort());
    expect(fs.existsSync(path.join(out, 'admin'))).toBe(false);
    expect(fs.existsSync(path.join(out, 'test'))).toBe(false);
  });

  it('migrates with its compiled migrations, recording the same names as the TypeScript sources', async () => {
    const { createKnex, migrationsDir } = await load<typeof import('../../api/db/knex.js')>('api/db/knex.js');
    const { migrateLatest } = await load<typeof import('../../api/db/migrationSource.js')>('api/db/migrationSource.js');
    expect(migrationsDir).toBe(path.join(out, 'migrations'));
    db = createKnex({ memory: true });
    await migrateLatest(db);
    const names = (await db('knex_migrations').orderBy('id').select('name')).map((r: { name: string }) => r.name);
    expect(names).toEqual(
      fs
        .readdirSync(path.join(root, 'migrations'))
        .filter((f) => f.endsWith('.ts'))
        .sort(),
    );
    expect(await db.schema.hasTable('users')).toBe(true);
  });

  it('finds the e-mail templates and the admin build at the project root, not inside the build directory', async () => {
    const { PROJECT_ROOT } = await load<typeof import('../../api/paths.js')>('api/paths.js');
    expect(PROJECT_ROOT).toBe(root);
    const { ADMIN_DIST } = await load<typeof import('../../api/app.js')>('api/app.js');
    expect(ADMIN_DIST).toBe(path.join(root, 'admin', 'dist'));
    const { renderTemplate } = await load<typeof import('../../api/mail/templates.js')>('api/mail/templates.js');
    const mail = renderTemplate('resetpassword', { link: 'https://leads.example.com/reset/abc' });
    expect(mail.text).toContain('https://leads.example.com/reset/abc');
  });
});
