import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import GlobalStyles from '@mui/material/GlobalStyles';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Portal from '@mui/material/Portal';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import PlayIcon from '@mui/icons-material/PlayCircleOutlineOutlined';
import { useNotify, useTranslate } from 'react-admin';
import { CopyButton } from '../layout/CopyButton';
import { download, playerUrl, qrMatrix, qrPath, qrPng, qrSvg, QUIET_ZONE } from './qr';

/** A QR code as an inline SVG (crisp at any size; the same modules as the downloads). */
export function QrImage({ text, size = 200, label }: { text: string; size?: number | string; label: string }) {
  const { side, d } = useMemo(() => {
    const m = qrMatrix(text);
    return { side: m.size + QUIET_ZONE * 2, d: qrPath(m) };
  }, [text]);
  return (
    <Box
      component="svg"
      viewBox={`0 0 ${side} ${side}`}
      role="img"
      aria-label={label}
      data-testid="code-qr"
      data-text={text}
      shapeRendering="crispEdges"
      sx={{ width: size, height: size, display: 'block' }}
    >
      <rect width={side} height={side} fill="#ffffff" />
      <path d={d} fill="#000000" />
    </Box>
  );
}

/** Only on paper: the QR large with the code's title, its address and the code (everything else of the page hidden). */
function PrintSheet({ url, code, title }: { url: string; code: string; title: string }) {
  const translate = useTranslate();
  return (
    <Portal>
      <GlobalStyles
        styles={{
          '.ls-code-print': { display: 'none' },
          '@media print': {
            'body > *:not(.ls-code-print)': { display: 'none !important' },
            '.ls-code-print': { display: 'flex !important' },
            '@page': { margin: '15mm' },
          },
        }}
      />
      <Box
        className="ls-code-print"
        data-testid="code-print"
        sx={{ flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '6mm', pt: '10mm', color: '#000', bgcolor: '#fff', fontFamily: 'system-ui, sans-serif' }}
      >
        <Box component="h1" sx={{ fontSize: '28pt', m: 0, fontWeight: 700 }}>
          {title}
        </Box>
        <QrImage text={url} size="120mm" label={translate('ls.codes.qr_label', { code })} />
        <Box sx={{ fontSize: '14pt' }}>{translate('ls.codes.print_scan')}</Box>
        <Box sx={{ fontSize: '11pt', fontFamily: 'ui-monospace, monospace', wordBreak: 'break-all' }}>{url}</Box>
        <Box sx={{ fontSize: '20pt', letterSpacing: '0.15em', fontFamily: 'ui-monospace, monospace', fontWeight: 700 }}>{code}</Box>
      </Box>
    </Portal>
  );
}

/**
 * A code's QR panel: the QR of <origin>/play/{cc_code}, its address with a copy button, downloads as PNG and SVG, a
 * print button (a page with just the QR and the title) and a link that opens the player.
 */
export function CodeQrPanel({ code, title }: { code: string; title?: string | null }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const url = playerUrl(code);
  const heading = title || code;
  const label = translate('ls.codes.qr_label', { code });

  async function png() {
    setBusy(true);
    try {
      download(await qrPng(url), `code-${code}.png`);
    } catch {
      notify('ls.codes.download_failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.5 }} data-testid="code-qr-panel">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, alignSelf: 'stretch' }}>
        {translate('ls.codes.qr_title')}
      </Typography>
      <QrImage text={url} size={220} label={label} />
      <Typography sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 22, fontWeight: 700, letterSpacing: '0.12em' }} data-testid="code-value">
        {code}
      </Typography>
      <Box sx={{ alignSelf: 'stretch', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
        <Link
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          sx={{ display: 'block', maxWidth: '100%', fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere', textAlign: 'center' }}
          data-testid="code-player-url"
        >
          {url}
        </Link>
        <CopyButton value={url} label={translate('ls.codes.player_address')} />
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'center' }}>
        <Button variant="contained" href={url} target="_blank" rel="noopener noreferrer" startIcon={<PlayIcon />} data-testid="code-open-player">
          {translate('ls.codes.open_player')}
        </Button>
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={() => void png()} disabled={busy} data-testid="code-download-png">
          {translate('ls.codes.download_png')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => download(new Blob([qrSvg(url, { title: heading })], { type: 'image/svg+xml' }), `code-${code}.svg`)}
          data-testid="code-download-svg"
        >
          {translate('ls.codes.download_svg')}
        </Button>
        <Button variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()} data-testid="code-print-button">
          {translate('ls.codes.print')}
        </Button>
      </Box>
      <PrintSheet url={url} code={code} title={heading} />
    </Paper>
  );
}
