/**
 * The registry: every resource module, once. A new resource is imported here and added to its list; the permission
 * groups and default grants (resources/permissions.ts), the API routes, the console's menu and screens, its labels
 * and every test that iterates over resources follow from these lists.
 */
import { accounts } from './accounts.js';
import { accountUsers } from './accountUsers.js';
import { users } from './users.js';
import { folders } from './folders.js';
import { files } from './files.js';
import { members } from './members.js';
import { invites } from './invites.js';
import { events } from './events.js';
import { eventForms } from './eventForms.js';
import { forms } from './forms.js';
import { formElements } from './formElements.js';
import { lists } from './lists.js';
import { listItems } from './listItems.js';
import { formStyles } from './formStyles.js';
import { integrations } from './integrations.js';
import { eventIntegrations } from './eventIntegrations.js';
import { mailTemplates } from './mailTemplates.js';
import { settings } from './settings.js';
import { leads } from './leads.js';
import { handoffs } from './handoffs.js';
import { meetingSlots, meetings } from './meetings.js';
import { conversations } from './conversations.js';
import { assets } from './assets.js';
import { collections } from './collections.js';
import { carousels, variants, slides, layers, carouselGroups, groupSchedules, codes } from './carousels.js';
import { views } from './views.js';
import type { ResourceDeclaration } from './types.js';

/** The account console's resources (account-console.md section 3), mounted under /accounts/{accountId}/<name>. */
export const ACCOUNT_RESOURCES: ResourceDeclaration[] = [
  members,
  invites,
  events,
  eventForms,
  forms,
  formElements,
  lists,
  listItems,
  formStyles,
  integrations,
  eventIntegrations,
  mailTemplates,
  settings,
  leads,
  handoffs,
  meetingSlots,
  meetings,
  conversations,
  assets,
  collections,
  carousels,
  variants,
  slides,
  layers,
  carouselGroups,
  groupSchedules,
  codes,
  views,
];

/** The entry admin's resources (spec point 7), mounted at /api/1/<name>. */
export const ENTRY_RESOURCES: ResourceDeclaration[] = [accounts, accountUsers, users, folders, files];

/** Every declared resource: what the API mounts, the admin shows, the grants come from and the tests iterate over. */
export const RESOURCES: ResourceDeclaration[] = [...ENTRY_RESOURCES, ...ACCOUNT_RESOURCES];
