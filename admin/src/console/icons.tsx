import type { ReactElement } from 'react';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AssignmentIcon from '@mui/icons-material/Assignment';
import DashboardIcon from '@mui/icons-material/Dashboard';
import EmailIcon from '@mui/icons-material/Email';
import EventIcon from '@mui/icons-material/Event';
import ExtensionIcon from '@mui/icons-material/Extension';
import GroupIcon from '@mui/icons-material/Group';
import ListAltIcon from '@mui/icons-material/ListAlt';
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import PaletteIcon from '@mui/icons-material/Palette';
import SettingsIcon from '@mui/icons-material/Settings';
import ContactPageIcon from '@mui/icons-material/ContactPage';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import InsightsIcon from '@mui/icons-material/Insights';
import PermMediaIcon from '@mui/icons-material/PermMedia';
import CollectionsIcon from '@mui/icons-material/Collections';
import ViewCarouselIcon from '@mui/icons-material/ViewCarousel';
import WorkspacesIcon from '@mui/icons-material/Workspaces';
import QrCode2Icon from '@mui/icons-material/QrCode2';

/** The console menu's icon per resource (anything new gets a neutral one). */
const ICONS: Record<string, () => ReactElement> = {
  home: () => <DashboardIcon />,
  members: () => <GroupIcon />,
  invites: () => <ForwardToInboxIcon />,
  events: () => <EventIcon />,
  forms: () => <AssignmentIcon />,
  lists: () => <AccountTreeIcon />,
  'form-styles': () => <PaletteIcon />,
  integrations: () => <ExtensionIcon />,
  'mail-templates': () => <EmailIcon />,
  settings: () => <SettingsIcon />,
  leads: () => <ContactPageIcon />,
  handoffs: () => <SwapHorizIcon />,
  statistics: () => <InsightsIcon />,
  assets: () => <PermMediaIcon />,
  collections: () => <CollectionsIcon />,
  carousels: () => <ViewCarouselIcon />,
  'carousel-groups': () => <WorkspacesIcon />,
  codes: () => <QrCode2Icon />,
};

export const iconOf = (name: string): ReactElement => (ICONS[name] ?? (() => <ListAltIcon />))();
