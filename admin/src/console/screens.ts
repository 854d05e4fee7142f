import { lazy } from 'react';
import type { ResourceScreens } from '../generated/ResourceRoutes';

/**
 * The console's hand-written screens, each its own chunk; every other screen is generated from its declaration. They
 * compose the generated parts (form, inputs by kind, list), so they look like their neighbours and read their fields
 * from the declaration.
 */
export const CONSOLE_SCREENS: Record<string, ResourceScreens> = {
  members: {
    list: lazy(() => import('../members/MemberList')),
    create: lazy(() => import('../members/MemberCreate')),
    edit: lazy(() => import('../members/MemberEdit')),
  },
  invites: {
    list: lazy(() => import('../invites/InviteList')),
    create: lazy(() => import('../invites/InviteCreate')),
    edit: lazy(() => import('../invites/InviteEdit')),
  },
  events: { edit: lazy(() => import('../events/EventEdit')) },
  forms: { create: lazy(() => import('../forms/FormCreate')), edit: lazy(() => import('../forms/FormEdit')) },
  lists: { create: lazy(() => import('../lists/ListCreate')), edit: lazy(() => import('../lists/ListEdit')) },
  integrations: { edit: lazy(() => import('../integrations/IntegrationEdit')) },
  'form-styles': { edit: lazy(() => import('../formStyles/FormStyleEdit')) },
  leads: { list: lazy(() => import('../leads/LeadList')), edit: lazy(() => import('../leads/LeadEdit')) },
  'mail-templates': { create: lazy(() => import('../mailTemplates/MailTemplateCreate')), edit: lazy(() => import('../mailTemplates/MailTemplateEdit')) },
  carousels: { create: lazy(() => import('../carouselEditor/CarouselCreate')), edit: lazy(() => import('../carouselEditor/CarouselEdit')) },
};
