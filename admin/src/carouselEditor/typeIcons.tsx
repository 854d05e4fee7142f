import type SvgIcon from '@mui/material/SvgIcon';
import ImageIcon from '@mui/icons-material/ImageOutlined';
import MovieIcon from '@mui/icons-material/MovieOutlined';
import LanguageIcon from '@mui/icons-material/Language';
import TouchAppIcon from '@mui/icons-material/TouchAppOutlined';
import QrCodeIcon from '@mui/icons-material/QrCode2';
import type { LayerType } from './layerModel';

/** One icon per layer type (the add menu, the layer list, the inspector). */
export const TYPE_ICONS: Record<LayerType, typeof SvgIcon> = {
  image: ImageIcon,
  video: MovieIcon,
  iframe: LanguageIcon,
  hotspot: TouchAppIcon,
  collectionqr: QrCodeIcon,
};
