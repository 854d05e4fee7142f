// npm test's helper (scripts/test.mjs), run with tsx: `make <pglite file>` prints the PostgreSQL template's name (when
// TEST_DATABASE_URL is set); `drop <name>` removes it. See test/helpers/templates.ts.
import { dropPostgresTemplate, makePgliteTemplate, makePostgresTemplate } from './templates.js';

const [command, arg] = process.argv.slice(2);
const server = process.env.TEST_DATABASE_URL;
if (command === 'make') {
  const [, name] = await Promise.all([makePgliteTemplate(arg), server ? makePostgresTemplate(server) : Promise.resolve('')]);
  process.stdout.write(name);
} else if (command === 'drop' && server && arg) {
  await dropPostgresTemplate(server, arg);
} else {
  console.error('usage: makeTemplates.ts make <pglite-file> | drop <postgres-template>');
  process.exit(2);
}
