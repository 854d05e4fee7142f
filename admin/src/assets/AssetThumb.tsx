import { useState } from 'react';
import Box from '@mui/material/Box';
import PlayCircleIcon from '@mui/icons-material/PlayCircleFilledWhite';
import { FileKindIcon, type FileKind } from '../media/fileKinds';
import type { AssetRecord } from './assetsApi';

export type ThumbAsset = Pick<AssetRecord, 'kind' | 'url' | 'thumbnail_url'> & Partial<Pick<AssetRecord, 'as_title' | 'as_version'>>;

const ICON_KIND: Record<string, FileKind> = { image: 'image', video: 'video', audio: 'audio', pdf: 'pdf', font: 'font' };

/** What a thumbnail shows: the one made at upload, else an image itself (small), else nothing (the kind's icon). */
export function thumbSource(asset: ThumbAsset): string | null {
  return asset.thumbnail_url ?? (asset.kind === 'image' ? asset.url : null);
}

/**
 * An asset as a small square: its thumbnail (a video's poster with a play mark), an image without one shown itself,
 * anything else (or a picture that fails to load) as its kind's icon. Decorative: the title beside it names it.
 */
export function AssetThumb({ asset, size = 48, fill }: { asset: ThumbAsset | undefined; size?: number; /** As wide as its container, square. */ fill?: boolean }) {
  const [broken, setBroken] = useState<string | null>(null);
  const src = asset ? thumbSource(asset) : null;
  const showImage = !!src && broken !== src;
  return (
    <Box
      data-testid="asset-thumb"
      data-kind={asset?.kind}
      sx={{
        ...(fill ? { width: '100%', aspectRatio: '1 / 1' } : { width: size, height: size }),
        flexShrink: 0,
        borderRadius: 1,
        overflow: 'hidden',
        position: 'relative',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'action.hover',
        color: 'text.secondary',
        border: 1,
        borderColor: 'divider',
      }}
    >
      {showImage ? (
        <Box
          component="img"
          src={src}
          alt=""
          loading="lazy"
          decoding="async"
          onError={() => setBroken(src)}
          sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      ) : (
        <FileKindIcon kind={ICON_KIND[asset?.kind ?? ''] ?? 'generic'} sx={{ fontSize: Math.max(20, size * 0.5) }} />
      )}
      {showImage && asset?.kind === 'video' && (
        <PlayCircleIcon sx={{ position: 'absolute', fontSize: Math.max(16, size * 0.4), color: 'common.white', opacity: 0.9, filter: 'drop-shadow(0 0 2px rgba(0,0,0,.6))' }} />
      )}
    </Box>
  );
}
