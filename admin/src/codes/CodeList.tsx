import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import PlayIcon from '@mui/icons-material/PlayCircleOutlineOutlined';
import { useLocaleState, useTranslate, type RaRecord } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import type { CellProps } from '../generated/cells';
import { GeneratedList } from '../generated/GeneratedList';
import { playerUrl } from './qr';

/** A code as people read it aloud and type it: large, spaced, monospaced. */
export function CodeCell({ record, source }: CellProps) {
  return (
    <Box component="span" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontWeight: 700, letterSpacing: '0.08em' }} data-testid="code-cell">
      {String(record[source] ?? '')}
    </Box>
  );
}

/** Opens the code's player in a new tab (the row itself opens the code). */
export function OpenPlayerButton({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const code = String(record.cc_code ?? '');
  if (!code) return null;
  const label = translate('ls.codes.open_player_named', { code });
  return (
    <Tooltip title={label}>
      <IconButton href={playerUrl(code)} target="_blank" rel="noopener noreferrer" aria-label={label} onClick={(e) => e.stopPropagation()} size="small">
        <PlayIcon />
      </IconButton>
    </Tooltip>
  );
}

/** A player counts as online when it reported in the last 3 minutes (it reports every 60 s). */
export const ONLINE_MS = 3 * 60_000;

/** The player's status: "Online", "Offline since <time>" or "Never seen", with its version and screen as a hint. */
export function StatusCell({ record }: CellProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const seen = record.cc_last_seen_at ? new Date(String(record.cc_last_seen_at)) : null;
  const online = !!seen && Date.now() - seen.getTime() < ONLINE_MS;
  const text = !seen
    ? translate('ls.codes.never_seen')
    : online
      ? translate('ls.codes.online')
      : translate('ls.codes.offline_since', { time: seen.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }) });
  const detail = [record.cc_player_version, record.cc_screen, record.cc_last_error].filter(Boolean).join(' · ');
  const dot = (
    <Box
      component="span"
      data-testid="code-status"
      data-status={online ? 'online' : seen ? 'offline' : 'never'}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, whiteSpace: 'nowrap' }}
    >
      <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', flexShrink: 0, bgcolor: online ? 'success.main' : seen ? 'error.main' : 'grey.400' }} />
      {text}
    </Box>
  );
  return detail ? <Tooltip title={detail}>{dot}</Tooltip> : dot;
}

const CELLS = { cc_code: CodeCell, cc_last_seen_at: StatusCell };

/** /console/{a}/codes: code, title, group and the player's status (online, offline since when); each row opens the code (its QR) and has a button that opens its player. */
export default function CodeList({ decl }: { decl: ResourceDeclaration }) {
  return <GeneratedList decl={decl} cells={CELLS} rowActions={OpenPlayerButton} phoneColumns={['cc_title', 'cc_last_seen_at']} />;
}
