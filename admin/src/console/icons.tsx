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
};

export const iconOf = (name: string): ReactElement => (ICONS[name] ?? (() => <ListAltIcon />))();
