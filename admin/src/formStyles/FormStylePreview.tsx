import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { useTranslate } from 'react-admin';
import { accountPath } from '../providers/accountPath';
import { api } from '../providers/http';

export interface FormStylePreviewProps {
  accountId: string;
  /** The saved style (a style being created has nothing to preview yet). */
  styleId?: string;
  /** The form shown first (default: the registration form of the style's event). */
  formId?: string;
  /** Bump it when the style is saved: the preview loads the page and its stylesheet again. */
  version?: number | string;
}

/** The widths the public page is looked at: a phone and a desktop. */
export const PREVIEW_WIDTHS = { phone: 375, desktop: 1200 } as const;
const FRAME_HEIGHT = { phone: 740, desktop: 820 } as const;
type Width = keyof typeof PREVIEW_WIDTHS;
type View = 'form' | 'thanks';

/**
 * The address of the preview page (api/routes/publicPages.ts): the public form entry in preview mode, which loads
 * the style and the form with the visitor's session and links the style's CSS as a stylesheet.
 */
export function previewUrl(accountId: string, styleId: string, options: { formId?: string; view?: View; version?: number | string } = {}): string {
  const q = new URLSearchParams();
  if (options.formId) q.set('form', options.formId);
  q.set('view', options.view ?? 'form');
  if (options.version !== undefined && /^\w{1,32}$/.test(String(options.version))) q.set('v', String(options.version));
  return `/preview/form-styles/${encodeURIComponent(accountId)}/${encodeURIComponent(styleId)}?${q}`;
}

/**
 * The sandbox of the preview frame: scripts (the page is a React app) and its own origin (it reads the console API
 * with the visitor's session and links the style's stylesheet, which needs the session too). Not granted: forms,
 * pop-ups, top navigation, modals, downloads. The page's own CSP keeps the custom CSS from loading anything from
 * another host, and CSS cannot run script; see README "Form styles".
 */
export const PREVIEW_SANDBOX = 'allow-same-origin allow-scripts';

interface FormRow {
  id: string;
  f_title?: string;
  f_name?: string;
}

/** The width the frame gets in the console: the desktop page is drawn at 1200 px and scaled down to fit. */
function useAvailableWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth || undefined);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/**
 * The console's preview of a form style: the public page in an iframe at a phone or a desktop width, the form page or
 * the thanks page, with any form of the account. Mounted on the form-styles edit page.
 */
export function FormStylePreview({ accountId, styleId, formId, version }: FormStylePreviewProps) {
  const translate = useTranslate();
  const [width, setWidth] = useState<Width>('phone');
  const [view, setView] = useState<View>('form');
  const [form, setForm] = useState(formId ?? '');
  const [forms, setForms] = useState<FormRow[]>();
  const [formsFailed, setFormsFailed] = useState(false);
  const { ref, width: available } = useAvailableWidth();

  useEffect(() => setForm(formId ?? ''), [formId]);
  useEffect(() => {
    if (!styleId) return; // nothing to preview yet
    const controller = new AbortController();
    setFormsFailed(false);
    api<FormRow[]>(accountPath(accountId, 'forms'), { signal: controller.signal }).then(
      (rows) => setForms([...rows].sort((a, b) => String(a.f_title ?? '').localeCompare(String(b.f_title ?? '')))),
      (e: unknown) => {
        if ((e as Error)?.name !== 'AbortError') setFormsFailed(true);
      },
    );
    return () => controller.abort();
  }, [accountId, styleId]);

  if (!styleId) {
    return (
      <Alert severity="info" data-testid="form-style-preview">
        {translate('ls.form_styles.save_first')}
      </Alert>
    );
  }

  const src = previewUrl(accountId, styleId, { formId: form || undefined, view, version });
  const frameWidth = PREVIEW_WIDTHS[width];
  const frameHeight = FRAME_HEIGHT[width];
  const scale = available && available < frameWidth ? available / frameWidth : 1;

  return (
    <Box component="section" aria-labelledby="form-style-preview-title" data-testid="form-style-preview" sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography id="form-style-preview-title" variant="subtitle1" component="h2">
          {translate('ls.form_styles.preview_title')}
        </Typography>
        <Link href={src} target="_blank" rel="noopener" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
          {translate('ls.form_styles.open')}
          <OpenInNewIcon fontSize="small" aria-hidden />
        </Link>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label={translate('ls.form_styles.form')}
          value={form}
          onChange={(e) => setForm(e.target.value)}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 220, flex: '1 1 220px', maxWidth: 420 }}
        >
          <option value="">{translate('ls.form_styles.event_form')}</option>
          {(forms ?? []).map((f) => (
            <option key={f.id} value={f.id}>
              {f.f_title || f.f_name || f.id}
            </option>
          ))}
        </TextField>
        <ToggleButtonGroup size="small" exclusive value={view} onChange={(_, v: View | null) => v && setView(v)} aria-label={translate('ls.form_styles.page')}>
          <ToggleButton value="form">{translate('ls.form_styles.form_page')}</ToggleButton>
          <ToggleButton value="thanks">{translate('ls.form_styles.thanks_page')}</ToggleButton>
        </ToggleButtonGroup>
        <ToggleButtonGroup size="small" exclusive value={width} onChange={(_, v: Width | null) => v && setWidth(v)} aria-label={translate('ls.form_styles.width')}>
          <ToggleButton value="phone">{translate('ls.form_styles.phone', { width: PREVIEW_WIDTHS.phone })}</ToggleButton>
          <ToggleButton value="desktop">{translate('ls.form_styles.desktop', { width: PREVIEW_WIDTHS.desktop })}</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {formsFailed ? <Alert severity="warning">{translate('ls.form_styles.forms_failed')}</Alert> : null}
      <Box ref={ref} sx={{ width: '100%', minWidth: 0 }}>
        <Box
          sx={{
            width: frameWidth * scale,
            height: frameHeight * scale,
            mx: width === 'phone' ? 'auto' : 0,
            overflow: 'hidden',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            bgcolor: 'background.default',
          }}
        >
          <iframe
            key={src}
            src={src}
            title={translate('ls.form_styles.frame_title')}
            sandbox={PREVIEW_SANDBOX}
            data-testid="form-style-preview-frame"
            data-width={frameWidth}
            width={frameWidth}
            height={frameHeight}
            style={{ display: 'block', border: 0, transform: scale < 1 ? `scale(${scale})` : undefined, transformOrigin: '0 0' }}
          />
        </Box>
      </Box>
    </Box>
  );
}
