import { useState } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import ZoomInIcon from '@mui/icons-material/ZoomIn';
import { useMediaQuery, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';
import { leadFileUrl } from './leadData';

const ZOOM = { min: 1, max: 4, step: 0.25 };

/** One photo: a thumbnail that opens it large, zoomable (slider, +/- keys, Ctrl+wheel) and scrollable when zoomed. */
function Photo({ accountId, fileId, label }: { accountId: string; fileId: string; label: string }) {
  const translate = useTranslate();
  const phone = useMediaQuery<Theme>((t) => t.breakpoints.down('sm'));
  const [open, setOpen] = useState(false);
  const [zoom, setZoom] = useState(1);
  const src = leadFileUrl(accountId, fileId);
  const change = (by: number) => setZoom((z) => Math.min(ZOOM.max, Math.max(ZOOM.min, z + by)));
  return (
    <>
      <ButtonBase
        onClick={() => setOpen(true)}
        aria-label={translate('ls.console.leads.photo_open', { name: label })}
        sx={{ display: 'block', borderRadius: 1, overflow: 'hidden', border: 1, borderColor: 'divider', position: 'relative', width: '100%' }}
      >
        <Box component="img" src={src} alt={label} loading="lazy" sx={{ display: 'block', width: '100%', maxHeight: 320, objectFit: 'contain', bgcolor: 'action.hover' }} />
        <ZoomInIcon sx={{ position: 'absolute', right: 8, bottom: 8, color: 'common.white', filter: 'drop-shadow(0 0 2px rgba(0,0,0,.8))' }} />
      </ButtonBase>
      <Dialog open={open} onClose={() => setOpen(false)} fullScreen={phone} maxWidth="lg" fullWidth aria-labelledby={`photo-${fileId}`}>
        <DialogTitle id={`photo-${fileId}`} sx={{ display: 'flex', alignItems: 'center', gap: 2, pr: 1 }}>
          <Box sx={{ flex: 1 }}>{label}</Box>
          <Slider
            value={zoom}
            {...ZOOM}
            onChange={(_e, v) => setZoom(v as number)}
            aria-label={translate('ls.console.leads.zoom')}
            valueLabelDisplay="auto"
            valueLabelFormat={(v) => `${Math.round(v * 100)}%`}
            sx={{ maxWidth: 200 }}
          />
          <IconButton onClick={() => setOpen(false)} aria-label={translate('ra.action.close')}>
            <CloseIcon />
          </IconButton>
        </DialogTitle>
        <DialogContent
          dividers
          tabIndex={0}
          onKeyDown={(e) => {
            if (e.key === '+' || e.key === '=') change(ZOOM.step);
            else if (e.key === '-') change(-ZOOM.step);
          }}
          onWheel={(e) => {
            if (e.ctrlKey) change(e.deltaY < 0 ? ZOOM.step : -ZOOM.step);
          }}
          sx={{ p: 0, overflow: 'auto', bgcolor: 'action.hover' }}
        >
          <Box component="img" src={src} alt={label} sx={{ display: 'block', width: `${zoom * 100}%`, maxWidth: 'none', height: 'auto', mx: zoom === 1 ? 'auto' : 0 }} />
        </DialogContent>
      </Dialog>
    </>
  );
}

/** The card photos of a lead, front and back side by side (stacked on a phone); nothing when it has none. */
export function LeadPhotos({ accountId, front, back }: { accountId: string; front?: unknown; back?: unknown }) {
  const translate = useTranslate();
  const photos = [
    [front, translate('resources.leads.fields.ld_front_fileid')],
    [back, translate('resources.leads.fields.ld_back_fileid')],
  ].filter((p): p is [string, string] => typeof p[0] === 'string' && !!p[0]);
  if (!photos.length) return null;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} data-testid="lead-photos">
      {photos.map(([id, label]) => (
        <Box key={id} sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 0.5 }}>
            {label}
          </Typography>
          <Photo accountId={accountId} fileId={id} label={label} />
        </Box>
      ))}
    </Stack>
  );
}
