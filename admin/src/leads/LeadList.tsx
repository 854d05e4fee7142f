import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import PlaylistAddCheckIcon from '@mui/icons-material/PlaylistAddCheck';
import { DateInput, LinkBase, useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedList } from '../generated/GeneratedList';
import { useResourceAccess } from '../generated/access';
import { useConsoleAccount } from '../console/ConsoleContext';
import { consolePath } from '../console/access';
import { LeadExportButton } from './LeadExportButton';
import { LEAD_CELLS, LeadRowTitle } from './leadCells';

/** Eleven list fields do not fit 1280 px with the menu open: these two wait in the Columns menu (both stay filters). */
const HIDDEN_COLUMNS = ['ld_source', 'ld_transcription_status'];

/** The capture-date range (a date is the whole day, on the server). */
const DATE_FILTERS = [
  <DateInput key="captured_from" source="captured_from" label="ls.console.leads.captured_from" />,
  <DateInput key="captured_to" source="captured_to" label="ls.console.leads.captured_to" />,
];

function TranscribeLink() {
  const translate = useTranslate();
  const { accountId } = useConsoleAccount();
  const { canUpdate } = useResourceAccess('leads');
  if (!canUpdate) return null;
  return (
    <Button size="small" component={LinkBase} to={consolePath(accountId, 'transcription')} startIcon={<PlaylistAddCheckIcon />} data-testid="leads-transcribe">
      {translate('ls.console.leads.transcribe')}
    </Button>
  );
}

/**
 * /console/{a}/leads: the generated list (prefix search over e-mail and names; filters event, owner, source,
 * transcription, validity, tags (any of), the rating range and the capture dates; 25 a page, newest first; the
 * rating as stars, the tags as chips) with the transcription queue, the CSV of everything the filter matches and the
 * generic bulk bar (owner, validity, rating, tags, delete).
 */
export default function LeadList({ decl }: { decl: ResourceDeclaration }) {
  return (
    // Nine columns: narrower cell padding keeps them within a 1280 px screen with the menu open.
    <Box sx={{ minWidth: 0, '& .RaDataTable-table .MuiTableCell-root': { px: 1 }, '& .RaDataTable-table .MuiTableCell-root:first-of-type': { pl: 2 } }}>
      <GeneratedList
        decl={decl}
        cells={LEAD_CELLS}
        primaryText={LeadRowTitle}
        extraFilters={DATE_FILTERS}
        toolbarExtra={
          <>
            <TranscribeLink />
            <LeadExportButton />
          </>
        }
        phoneColumns={['ld_eventid', 'ld_captured_at']}
        hiddenColumns={HIDDEN_COLUMNS}
        // The leads' own CSV (a column per form element) instead of the generic one; bulk is the generic bar: owner,
        // validity and delete on the rows ticked or on every lead the filter matches.
        exportButton={false}
      />
    </Box>
  );
}
