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
  conversations: { list: lazy(() => import('../conversations/ConversationList')), edit: lazy(() => import('../conversations/ConversationEdit')) },
  'mail-templates': { create: lazy(() => import('../mailTemplates/MailTemplateCreate')), edit: lazy(() => import('../mailTemplates/MailTemplateEdit')) },
  assets: {
    list: lazy(() => import('../assets/AssetList')),
    create: lazy(() => import('../assets/AssetCreate')),
    edit: lazy(() => import('../assets/AssetEdit')),
  },
  collections: { create: lazy(() => import('../collections/CollectionCreate')), edit: lazy(() => import('../collections/CollectionEdit')) },
  'carousel-groups': { create: lazy(() => import('../carouselGroups/CarouselGroupCreate')), edit: lazy(() => import('../carouselGroups/CarouselGroupEdit')) },
  codes: { list: lazy(() => import('../codes/CodeList')), create: lazy(() => import('../codes/CodeCreate')), edit: lazy(() => import('../codes/CodeEdit')) },
  carousels: { create: lazy(() => import('../carouselEditor/CarouselCreate')), edit: lazy(() => import('../carouselEditor/CarouselEdit')) },
};
