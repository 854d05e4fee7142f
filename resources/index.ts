import { accounts } from './accounts.js';
import { accountUsers } from './accountUsers.js';
import { users } from './users.js';
import { folders } from './folders.js';
import { files } from './files.js';
import type { ResourceDeclaration } from './types.js';

export const RESOURCES: ResourceDeclaration[] = [accounts, accountUsers, users, folders, files];
export { accounts, accountUsers, users, folders, files };
export * from './permissions.js';
export * from './messages.js';
export type { ResourceDeclaration } from './types.js';
