// npm run user:create -- --email E --password P [--role root|superadmin|admin|member] [--first F] [--last L]
import { parseArgs } from 'node:util';
import { loadConfig } from '../api/config.js';
import { openDatabase, prepareDatabase, upsertUser } from '../api/db/bootstrap.js';
import { isRole } from '../resources/permissions.js';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    role: { type: 'string', default: 'member' },
    first: { type: 'string', default: '' },
    last: { type: 'string', default: '' },
  },
});
if (!values.email || !values.password) {
  console.error('usage: npm run user:create -- --email E --password P [--role root|superadmin|admin|member] [--first F] [--last L]');
  process.exit(2);
}
if (!isRole(values.role)) {
  console.error(`unknown role ${values.role}: use root, superadmin, admin or member`);
  process.exit(2);
}
if (values.password.length < 4) {
  console.error('the password needs at least 4 characters');
  process.exit(2);
}
const config = loadConfig();
const db = openDatabase(config);
try {
  await prepareDatabase(db);
  const { user, created } = await upsertUser(db, { email: values.email, password: values.password, role: values.role, firstName: values.first, lastName: values.last });
  console.log(`${created ? 'created' : 'updated'} ${values.role} user ${user.u_email} (${user.u_id})`);
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
