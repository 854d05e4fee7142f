import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import { upsertUser } from '../../api/db/bootstrap.js';
import { ROLES, isRole, type Role } from '../../resources/permissions.js';
import { isEmail } from '../../resources/fields.js';
import { CliError } from './cli.js';

export const USER_CREATE_USAGE = `usage: npm run user:create -- --email E [--password P] [--role ${ROLES.join('|')}] [--first F] [--last L]
  Creates the user (role member unless --role), or sets the password of an existing one (keeping its role unless --role).
  Without --password the password is asked for on the terminal, or read as one line from standard input.`;

// The API's own bound on a password (resources/users.ts).
const PASSWORD_MAX_LENGTH = 1024;

export interface UserCreateOptions {
  email: string;
  password?: string;
  role?: Role;
  firstName?: string;
  lastName?: string;
}

/** The command line, checked; undefined for --help. */
export function parseUserCreateArgs(args: string[]): UserCreateOptions | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        role: { type: 'string' },
        first: { type: 'string' },
        last: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new CliError(`${(err as Error).message}\n${USER_CREATE_USAGE}`);
  }
  if (values.help) return undefined;
  if (!values.email) throw new CliError(`--email is required\n${USER_CREATE_USAGE}`);
  if (!isEmail(values.email)) throw new CliError(`not a valid e-mail address: ${values.email}`);
  if (values.role !== undefined && !isRole(values.role)) throw new CliError(`unknown role ${values.role}: use ${ROLES.join(', ')}`);
  return { email: values.email, password: values.password, role: values.role as Role | undefined, firstName: values.first, lastName: values.last };
}

/** The rule the API applies when a password is set (PASSWORD_MIN_LENGTH). */
export function checkPassword(password: string, minLength: number): void {
  if (password.length < minLength) throw new CliError(`the password needs at least ${minLength} characters (PASSWORD_MIN_LENGTH)`);
  if (password.length > PASSWORD_MAX_LENGTH) throw new CliError(`the password may have at most ${PASSWORD_MAX_LENGTH} characters`);
}

/** Creates or updates the user; returns the line to print. */
export async function userCreate(db: Knex, options: UserCreateOptions & { password: string }, passwordMinLength: number): Promise<string> {
  checkPassword(options.password, passwordMinLength);
  const { user, created, previousRole } = await upsertUser(db, options);
  if (created) return `created user ${user.u_email} (${user.u_id}) with role ${user.u_role}`;
  const role = previousRole === user.u_role ? `role ${user.u_role} ${options.role ? 'unchanged' : 'kept'}` : `role changed from ${previousRole} to ${user.u_role}`;
  return `updated user ${user.u_email} (${user.u_id}): password set, ${role}`;
}
