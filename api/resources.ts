import type { Router } from 'express';
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

/** Where a resource is mounted: /<path> for a platform resource, /accounts/:accountId/<path> for an account's. */
export function mountPathOf(decl: ResourceDeclaration): string {
  const path = decl.path ?? decl.name;
  return decl.tenancy === 'account' ? `/accounts/:accountId/${path}` : `/${path}`;
}

/**
 * Mounts every declared resource of the registry on the API router through the one pipeline (api/crud/router.ts),
 * account resources first (their paths are the longer ones) with the account's routes that are not resources, then the
 * platform resources.
 */
export function mountResources(api: Router, resources: ResourceDeclaration[] = RESOURCES): void {
  // Card photos: PUT/GET by the device's id only (not a resource with a list or a form).
  api.use('/accounts/:accountId/lead-files', leadFilesRouter());
  const mount = (decl: ResourceDeclaration) => {
    const hooks = RESOURCE_HOOKS[decl.name] ?? {};
    if (hooks !== 'own') api.use(mountPathOf(decl), resourceRouter(decl, hooks, resourceNamed));
  };
  resources.filter((d) => d.tenancy === 'account').forEach(mount);
  api.use('/accounts/:accountId/stats', statsRouter());
  api.use('/accounts/:accountId/sync', syncRouter());
  resources.filter((d) => d.tenancy !== 'account').forEach(mount);
}
