import { Router } from 'express';
import { resourceRouter } from './crud/router.js';
import type { ResourceHooks } from './crud/adapter.js';
import { accountsHooks } from './routes/accounts.js';
import { usersHooks } from './routes/users.js';
import { accountUsersHooks } from './routes/accountUsers.js';
import { membersHooks } from './console/members.js';
import { invitesHooks, invitesRoutes } from './console/invites.js';
import { mailTemplatesRoutes } from './console/mailTemplates.js';
import { listItemsHooks } from './console/listItems.js';
import { eventGraphRoute, formGraphRoute } from './console/graphs.js';
import { listsRoutes } from './console/lists.js';
import { integrationsRoutes } from './console/integrations.js';
import { formStylesRoutes } from './console/formStyles.js';
import { handoffsHooks } from './console/handoffs.js';
import { meetingSlotsHooks, meetingsHooks } from './console/meetings.js';
import { conversationsHooks } from './console/conversations.js';
import { statsRouter } from './console/stats.js';
import { leadsBulkHooks, leadsHooks, leadsRoutes } from './console/leads.js';
import { leadFilesRouter } from './console/leadFiles.js';
import { eventExportRoute } from './console/leadExport.js';
import { purgeEvent } from './console/leadFiles.js';
import { eventScanRoute } from './console/scan.js';
import { assetsHooks, assetsRoutes } from './console/assets.js';
import {
  carouselGraphRoute,
  carouselManifestRoute,
  carouselGroupsRoutes,
  codesHooks,
  groupSchedulesHooks,
  collectionsHooks,
  collectionsRoutes,
  layersHooks,
} from './console/carousels.js';
import { syncRouter } from './console/sync.js';
import { viewsHooks } from './console/views.js';
import { RESOURCES, resourceNamed } from '../resources/index.js';
import type { ResourceDeclaration } from '../resources/types.js';

/**
 * What each declared resource adds to the generic pipeline: hooks and routes of its own (api/routes/<name>.ts for the
 * entry admin's, api/console/<name>.ts for the console's). A resource not named here is served from its declaration
 * alone. 'own' marks a resource with a router of its own instead (the media library's tree at /storage).
 */
const RESOURCE_HOOKS: Record<string, ResourceHooks | 'own'> = {
  accounts: accountsHooks,
  users: usersHooks,
  accountUsers: accountUsersHooks,
  folders: 'own',
  files: 'own',
  members: membersHooks,
  invites: { ...invitesHooks, routes: invitesRoutes },
  'mail-templates': { routes: mailTemplatesRoutes },
  'list-items': listItemsHooks,
  forms: { routes: formGraphRoute },
  events: {
    remove: purgeEvent,
    routes(router) {
      eventGraphRoute(router);
      eventExportRoute(router);
      eventScanRoute(router);
    },
  },
  lists: { routes: listsRoutes },
  integrations: { routes: integrationsRoutes },
  'form-styles': { routes: formStylesRoutes },
  handoffs: handoffsHooks,
  'meeting-slots': meetingSlotsHooks,
  meetings: meetingsHooks,
  conversations: conversationsHooks,
  leads: { ...leadsHooks, ...leadsBulkHooks, routes: leadsRoutes },
  assets: { ...assetsHooks, routes: assetsRoutes },
  collections: { ...collectionsHooks, routes: collectionsRoutes },
  carousels: {
    routes(router) {
      carouselGraphRoute(router);
      carouselManifestRoute(router);
    },
  },
  layers: layersHooks,
  'carousel-groups': { routes: carouselGroupsRoutes },
  'group-schedules': groupSchedulesHooks,
  codes: codesHooks,
  views: viewsHooks,
};

/** A resource's hooks (the trash's purge job runs them outside the routes). */
export const hooksOf = (name: string): ResourceHooks | 'own' | undefined => RESOURCE_HOOKS[name];

/** The path an account resource is mounted under. */
const ACCOUNT_PREFIX = '/accounts/:accountId';

/** Where a resource is mounted: /<path> for a platform resource, /accounts/:accountId/<path> for an account's. */
export function mountPathOf(decl: ResourceDeclaration): string {
  const path = decl.path ?? decl.name;
  return decl.tenancy === 'account' ? `${ACCOUNT_PREFIX}/${path}` : `/${path}`;
}

/**
 * Mounts every declared resource of the registry on the API router through the one pipeline (api/crud/router.ts): the
 * account resources, with the account's routes that are not resources, in one router at /accounts/:accountId (a call
 * of any other path passes them all with one test of its path instead of one per resource), then the platform
 * resources.
 */
export function mountResources(api: Router, resources: ResourceDeclaration[] = RESOURCES): void {
  const account = Router({ mergeParams: true });
  // Card photos: PUT/GET by the device's id only (not a resource with a list or a form).
  account.use('/lead-files', leadFilesRouter());
  const mount = (on: Router, decl: ResourceDeclaration) => {
    const hooks = RESOURCE_HOOKS[decl.name] ?? {};
    if (hooks !== 'own') on.use(mountPathOf(decl).replace(ACCOUNT_PREFIX, ''), resourceRouter(decl, hooks, resourceNamed));
  };
  for (const decl of resources) if (decl.tenancy === 'account') mount(account, decl);
  account.use('/stats', statsRouter());
  account.use('/sync', syncRouter());
  api.use(ACCOUNT_PREFIX, account);
  for (const decl of resources) if (decl.tenancy !== 'account') mount(api, decl);
}
