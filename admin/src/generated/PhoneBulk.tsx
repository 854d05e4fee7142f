import { useId, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ChecklistIcon from '@mui/icons-material/Checklist';
import { useListContext, useTranslate, type RaRecord } from 'react-admin';
import { BulkButtons, BulkScope, useBulkState, useBulkTarget, useWholePage } from './BulkToolbar';
import type { ResourceDeclaration } from '../../../resources/types';

/** A touch target of at least 44 × 44 px (WCAG 2.5.5). */
const TOUCH = 44;

/**
 * The toolbar's "Select" on a phone (below 600 px the list has no checkbox column): turns the rows into checkboxes
 * and shows the bar of bulk actions at the foot of the screen; pressed again, it ends that and unticks every row.
 */
export function SelectModeButton({ selecting, onChange }: { selecting: boolean; onChange(selecting: boolean): void }) {
  const translate = useTranslate();
  const { onUnselectItems } = useListContext();
  return (
    <Button
      size="small"
      startIcon={<ChecklistIcon />}
      aria-pressed={selecting}
      variant={selecting ? 'contained' : 'text'}
      onClick={() => {
        if (selecting) onUnselectItems();
        onChange(!selecting);
      }}
      sx={{ minHeight: TOUCH }}
      data-testid="select-mode"
    >
      {translate('ls.list_tools.select_mode')}
    </Button>
  );
}

/**
 * A phone's rows in select mode: each row is one label around its checkbox (the whole row toggles it; its text is
 * the checkbox's name), with "this page" on top.
 */
export function PhoneSelectRows({ primary, secondary }: { primary(record: RaRecord): ReactNode; secondary(record: RaRecord): ReactNode }) {
  const translate = useTranslate();
  const { data = [], selectedIds = [], onToggleItem, onSelect } = useListContext();
  const wholePage = useWholePage();
  const some = data.some((r) => selectedIds.includes(r.id));
  const base = useId();
  const row = { display: 'flex', alignItems: 'center', gap: 1, minHeight: 56, px: 1, cursor: 'pointer', borderBottom: 1, borderColor: 'divider' };
  return (
    <Box data-testid="phone-select-rows">
      <Box component="label" sx={{ ...row, bgcolor: 'action.hover' }}>
        <Checkbox
          checked={wholePage}
          indeterminate={some && !wholePage}
          onChange={() => onSelect(wholePage ? [] : data.map((r) => r.id))}
          sx={{ width: TOUCH, height: TOUCH, flexShrink: 0 }}
          data-testid="select-page"
        />
        <Typography variant="body2">{translate('ls.list_tools.select_page', { count: data.length })}</Typography>
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label={translate('ls.list_tools.select_rows')}>
        {data.map((r) => {
          const text = `${base}-${String(r.id)}`;
          return (
            <li key={String(r.id)}>
              <Box component="label" sx={row} data-testid="phone-select-row">
                <Checkbox
                  checked={selectedIds.includes(r.id)}
                  onChange={() => onToggleItem(r.id)}
                  sx={{ width: TOUCH, height: TOUCH, flexShrink: 0 }}
                  slotProps={{ input: { 'aria-labelledby': text } }}
                />
                <Box id={text} sx={{ minWidth: 0, py: 1 }}>
                  <Typography variant="body1" component="div" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                    {primary(r)}
                  </Typography>
                  <Typography variant="body2" component="div" color="text.secondary">
                    {secondary(r)}
                  </Typography>
                </Box>
              </Box>
            </li>
          );
        })}
      </Box>
    </Box>
  );
}

/** The bar's count and "select all N matching" (one tap ticks the page and takes every row the filter matches). */
function PhoneSelection() {
  const translate = useTranslate();
  const { data = [], total, onSelect } = useListContext();
  const { count, allMatching } = useBulkTarget();
  const { setAllMatching } = useBulkState();
  const more = !!total && total > data.length && !allMatching;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minWidth: 0 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }} role="status" data-testid="phone-selected-count">
        {allMatching ? translate('ls.list_tools.all_matching_selected', { count }) : translate('ls.list_tools.selected_count', { count })}
      </Typography>
      {more && (
        <Button
          size="small"
          onClick={() => {
            onSelect(data.map((r) => r.id));
            setAllMatching(true);
          }}
          sx={{ minHeight: TOUCH }}
          data-testid="select-all-matching"
        >
          {translate('ls.list_tools.select_all_matching', { count: total })}
        </Button>
      )}
    </Box>
  );
}

/**
 * A phone's bar of bulk actions, fixed at the foot of the screen while select mode is on: the count, "select all N
 * matching", the same update and delete (and confirmations) as the desktop's bar, and Done.
 */
export function PhoneBulkBar({
  decl,
  accountId,
  canUpdate,
  canDelete,
  onDone,
}: {
  decl: ResourceDeclaration;
  accountId: string;
  canUpdate: boolean;
  canDelete: boolean;
  onDone(): void;
}) {
  const translate = useTranslate();
  const { onUnselectItems } = useListContext();
  return (
    <Paper
      elevation={8}
      component="section"
      aria-label={translate('ls.list_tools.bulk_bar')}
      data-testid="phone-bulk-bar"
      sx={{
        position: 'fixed',
        left: 0,
        right: 0,
        bottom: 0,
        zIndex: (theme) => theme.zIndex.appBar,
        px: 1.5,
        py: 1,
        pb: 'max(8px, env(safe-area-inset-bottom))',
        borderRadius: 0,
        display: 'flex',
        flexDirection: 'column',
        gap: 0.5,
        '& .MuiButton-root': { minHeight: TOUCH },
      }}
    >
      <PhoneSelection />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <BulkButtons decl={decl} accountId={accountId} canUpdate={canUpdate} canDelete={canDelete} />
        <Button
          size="small"
          sx={{ ml: 'auto' }}
          onClick={() => {
            onUnselectItems();
            onDone();
          }}
          data-testid="select-mode-done"
        >
          {translate('ls.list_tools.select_done')}
        </Button>
      </Box>
    </Paper>
  );
}

/** Select mode on a phone: the rows with checkboxes and the bar at the foot, sharing "all matching". */
export function PhoneSelectMode(props: {
  decl: ResourceDeclaration;
  accountId: string;
  canUpdate: boolean;
  canDelete: boolean;
  onDone(): void;
  primary(record: RaRecord): ReactNode;
  secondary(record: RaRecord): ReactNode;
}) {
  const { primary, secondary, ...bar } = props;
  return (
    <BulkScope>
      <PhoneSelectRows primary={primary} secondary={secondary} />
      <PhoneBulkBar {...bar} />
    </BulkScope>
  );
}
