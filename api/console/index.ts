import type { Router } from 'express';
import { accountResourceRouter } from './router.js';
import type { ConsoleHooks } from './generic.js';
import { membersHooks } from './members.js';
import { invitesHooks, invitesRoutes } from './invites.js';
import { mailTemplatesRoutes } from './mailTemplates.js';
import { listItemsHooks } from './listItems.js';
import { eventGraphRoute, formGraphRoute } from './graphs.js';
import { listsRoutes } from './lists.js';
import { integrationsRoutes } from './integrations.js';
import { formStylesRoutes } from './formStyles.js';
import { handoffsHooks } from './handoffs.js';
import { statsRouter } from './stats.js';
import { leadsHooks, leadsRoutes } from './leads.js';
import { leadFilesRouter } from './leadFiles.js';
import { eventExportRoute } from './leadExport.js';
import { eventScanRoute } from './scan.js';
import { assetsHooks, assetsRoutes } from './assets.js';
import { carouselGraphRoute, carouselManifestRoute, carouselGroupsRoutes, codesHooks, collectionsHooks, collectionsRoutes, layersHooks } from './carousels.js';
import { syncRouter } from './sync.js';
import { ACCOUNT_RESOURCES } from '../../resources/index.js';

/** What each account resource adds to the generic behaviour: its hooks and its own routes (api/console/<name>.ts). */
const RESOURCE_HOOKS: Record<string, { hooks?: ConsoleHooks; extra?: (router: Router) => void }> = {
  members: { hooks: membersHooks },
  invites: { hooks: invitesHooks, extra: invitesRoutes },
  'mail-templates': { extra: mailTemplatesRoutes },
  'list-items': { hooks: listItemsHooks },
  forms: { extra: formGraphRoute },
  events: {
    extra: (router) => {
      eventGraphRoute(router);
      eventExportRoute(router);
      eventScanRoute(router);
    },
  },
  lists: { extra: listsRoutes },
  integrations: { extra: integrationsRoutes },
  'form-styles': { extra: formStylesRoutes },
  handoffs: { hooks: handoffsHooks },
  leads: { hooks: leadsHooks, extra: leadsRoutes },
  assets: { hooks: assetsHooks, extra: assetsRoutes },
  collections: { hooks: collectionsHooks, extra: collectionsRoutes },
  carousels: {
    extra: (router) => {
      carouselGraphRoute(router);
      carouselManifestRoute(router);
    },
  },
  layers: { hooks: layersHooks },
  'carousel-groups': { extra: carouselGroupsRoutes },
  codes: { hooks: codesHooks },
};

/** Mounts every account resource of the registry at /accounts/:accountId/<name> on the API router. */
export function mountAccountResources(api: Router): void {
  // Card photos: PUT/GET by the device's id only (not a resource with a list or a form).
  api.use('/accounts/:accountId/lead-files', leadFilesRouter());
  for (const decl of ACCOUNT_RESOURCES) {
    const own = RESOURCE_HOOKS[decl.name] ?? {};
    api.use(`/accounts/:accountId/${decl.name}`, accountResourceRouter(decl, own.hooks, own.extra));
  }
  api.use('/accounts/:accountId/stats', statsRouter());
  api.use('/accounts/:accountId/sync', syncRouter());
}
