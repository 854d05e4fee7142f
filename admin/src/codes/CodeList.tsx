import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import PlayIcon from '@mui/icons-material/PlayCircleOutlineOutlined';
import { useTranslate, type RaRecord } from 'react-admin';
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

const CELLS = { cc_code: CodeCell };

/** /console/{a}/codes: code, title and group; each row opens the code (its QR) and has a button that opens its player. */
export default function CodeList({ decl }: { decl: ResourceDeclaration }) {
  return <GeneratedList decl={decl} cells={CELLS} rowActions={OpenPlayerButton} phoneColumns={['cc_code', 'cc_groupid']} />;
}
