import { accounts } from './accounts.js';
import { accountUsers } from './accountUsers.js';
import { users } from './users.js';
import type { ResourceDeclaration } from './types.js';

export const RESOURCES: ResourceDeclaration[] = [accounts, accountUsers, users];
export { accounts, accountUsers, users };
export * from './permissions.js';
export * from './messages.js';
export type { ResourceDeclaration } from './types.js';
