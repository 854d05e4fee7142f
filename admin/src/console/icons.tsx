import type { ReactElement } from 'react';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AssignmentIcon from '@mui/icons-material/Assignment';
import BadgeIcon from '@mui/icons-material/Badge';
import BookmarkIcon from '@mui/icons-material/Bookmark';
import BusinessIcon from '@mui/icons-material/Business';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import CampaignIcon from '@mui/icons-material/Campaign';
import ChatIcon from '@mui/icons-material/Chat';
import CollectionsIcon from '@mui/icons-material/Collections';
import ContactPageIcon from '@mui/icons-material/ContactPage';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DescriptionIcon from '@mui/icons-material/Description';
import EmailIcon from '@mui/icons-material/Email';
import EventIcon from '@mui/icons-material/Event';
import ExtensionIcon from '@mui/icons-material/Extension';
import FolderIcon from '@mui/icons-material/Folder';
import ForumIcon from '@mui/icons-material/Forum';
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import GroupIcon from '@mui/icons-material/Group';
import HandshakeIcon from '@mui/icons-material/Handshake';
import HistoryIcon from '@mui/icons-material/History';
import ImageIcon from '@mui/icons-material/Image';
import InsightsIcon from '@mui/icons-material/Insights';
import CodeIcon from '@mui/icons-material/Code';
import KeyIcon from '@mui/icons-material/Key';
import LabelIcon from '@mui/icons-material/Label';
import LinkIcon from '@mui/icons-material/Link';
import ListAltIcon from '@mui/icons-material/ListAlt';
import MeetingRoomIcon from '@mui/icons-material/MeetingRoom';
import MonitorIcon from '@mui/icons-material/Monitor';
import PaletteIcon from '@mui/icons-material/Palette';
import PermMediaIcon from '@mui/icons-material/PermMedia';
import PersonIcon from '@mui/icons-material/Person';
import QrCode2Icon from '@mui/icons-material/QrCode2';
import ScheduleIcon from '@mui/icons-material/Schedule';
import SettingsIcon from '@mui/icons-material/Settings';
import StarIcon from '@mui/icons-material/Star';
import StorefrontIcon from '@mui/icons-material/Storefront';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import TuneIcon from '@mui/icons-material/Tune';
import ViewCarouselIcon from '@mui/icons-material/ViewCarousel';
import WorkspacesIcon from '@mui/icons-material/Workspaces';
import type { ResourceIcon } from '../../../resources/types';

/** Each icon a declaration may name (resources/types.ts RESOURCE_ICONS; the type makes a missing one an error), and the console pages' own. */
const ICONS: Record<ResourceIcon | ConsolePageIcon, () => ReactElement> = {
  list: () => <ListAltIcon />,
  group: () => <GroupIcon />,
  forward_to_inbox: () => <ForwardToInboxIcon />,
  event: () => <EventIcon />,
  assignment: () => <AssignmentIcon />,
  account_tree: () => <AccountTreeIcon />,
  palette: () => <PaletteIcon />,
  extension: () => <ExtensionIcon />,
  email: () => <EmailIcon />,
  settings: () => <SettingsIcon />,
  contact_page: () => <ContactPageIcon />,
  swap_horiz: () => <SwapHorizIcon />,
  perm_media: () => <PermMediaIcon />,
  collections: () => <CollectionsIcon />,
  view_carousel: () => <ViewCarouselIcon />,
  workspaces: () => <WorkspacesIcon />,
  qr_code: () => <QrCode2Icon />,
  business: () => <BusinessIcon />,
  person: () => <PersonIcon />,
  folder: () => <FolderIcon />,
  star: () => <StarIcon />,
  handshake: () => <HandshakeIcon />,
  schedule: () => <ScheduleIcon />,
  calendar_month: () => <CalendarMonthIcon />,
  chat: () => <ChatIcon />,
  forum: () => <ForumIcon />,
  key: () => <KeyIcon />,
  bookmark: () => <BookmarkIcon />,
  label: () => <LabelIcon />,
  campaign: () => <CampaignIcon />,
  storefront: () => <StorefrontIcon />,
  badge: () => <BadgeIcon />,
  meeting_room: () => <MeetingRoomIcon />,
  tune: () => <TuneIcon />,
  description: () => <DescriptionIcon />,
  link: () => <LinkIcon />,
  image: () => <ImageIcon />,
  monitor: () => <MonitorIcon />,
  history: () => <HistoryIcon />,
  home: () => <DashboardIcon />,
  statistics: () => <InsightsIcon />,
  developer: () => <CodeIcon />,
};

/** The console's pages that are not resources. */
export type ConsolePageIcon = 'home' | 'statistics' | 'developer';

/** The icon of a resource (its declaration's `icon`, default 'list') or of a console page. */
export const iconOf = (name: ResourceIcon | ConsolePageIcon | undefined): ReactElement => ICONS[name ?? 'list']();
