import ImageIcon from '@mui/icons-material/ImageOutlined';
import MovieIcon from '@mui/icons-material/MovieOutlined';
import AudioFileIcon from '@mui/icons-material/AudioFileOutlined';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdfOutlined';
import DescriptionIcon from '@mui/icons-material/DescriptionOutlined';
import FontDownloadIcon from '@mui/icons-material/FontDownloadOutlined';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFileOutlined';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import { extensionOf, THUMBNAIL_EXTENSIONS } from '../../../resources/files';

export type FileKind = 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'font' | 'generic';

/** What a file is, from its MIME type (else its extension), for the icon of files without a thumbnail. */
export function fileKind(type: string | undefined, filename: string): FileKind {
  const t = (type ?? '').toLowerCase();
  const ext = extensionOf(filename);
  if (t.startsWith('image/') || ['png', 'jpg', 'jpeg', 'gif', 'webp'].includes(ext)) return 'image';
  if (t.startsWith('video/') || ['mp4', 'webm'].includes(ext)) return 'video';
  if (t.startsWith('audio/') || ext === 'mp3') return 'audio';
  if (t === 'application/pdf' || ext === 'pdf') return 'pdf';
  if (t.startsWith('text/') || ['txt', 'csv'].includes(ext)) return 'text';
  if (t.startsWith('font/') || ['woff', 'woff2'].includes(ext)) return 'font';
  return 'generic';
}

/** Spec 3/9: png, jpeg and jpg show a thumbnail. */
export const hasThumbnail = (extension: string) => THUMBNAIL_EXTENSIONS.includes(extension.toLowerCase());

const ICONS = {
  image: ImageIcon,
  video: MovieIcon,
  audio: AudioFileIcon,
  pdf: PictureAsPdfIcon,
  text: DescriptionIcon,
  font: FontDownloadIcon,
  generic: InsertDriveFileIcon,
} satisfies Record<FileKind, unknown>;

export function FileKindIcon({ kind, ...props }: { kind: FileKind } & SvgIconProps) {
  const Icon = ICONS[kind];
  return <Icon data-kind={kind} {...props} />;
}
