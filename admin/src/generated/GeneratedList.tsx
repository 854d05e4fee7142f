import { useMemo, useState, type ComponentType, type ReactElement, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import { useMediaQuery, type Theme } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import {
  Button,
  ColumnsButton,
  DataTable,
  DateInput,
  FilterButton,
  LinkBase,
  List,
  NumberInput,
  SimpleList,
  TopToolbar,
  useCreatePath,
  useTranslate,
  type RaRecord,
  type TranslateFunction,
} from 'react-admin';
import type { FieldMeta, ResourceDeclaration } from '../../../resources/types';
import { PAGE_SIZE, SinglePagePagination, useSearchFilters } from '../layout/lists';
import { ListEmpty } from '../layout/ListEmpty';
import { kindOf, type FieldInputProps } from './kinds';
import type { CellProps } from './cells';
import { titleField, titleOf } from './rules';
import { useResourceAccess } from './access';
import { BulkToolbar, bulkFieldsOf } from './BulkToolbar';
import { PhoneSelectMode, SelectModeButton } from './PhoneBulk';
import { columnsStoreKey } from './columns';
import { ExportButton, ListCurlButton, TrashButton, useCanCopyCurl, useConsoleAccountId } from './listTools';
import { ViewsMenu } from '../views/ViewsMenu';

function AddButton({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const to = `${useCreatePath()({ type: 'list', resource: decl.name })}/new`;
  return (
    <Button component={LinkBase} to={to} label={translate('ra.action.create')} variant="contained" data-testid="create-button">
      <AddIcon />
    </Button>
  );
}

/** The list's filters: the prefix search (when the resource has search fields), then one per `filter: true` field. */
const NO_FILTERS: ReactElement[] = [];

const NO_FILTER_INPUTS: Record<string, ComponentType<FieldInputProps>> = {};

/** One bound of a declared range as a filter input: a number (within the field's bounds) or a date. */
function rangeFilter(decl: ResourceDeclaration, r: NonNullable<ResourceDeclaration['ranges']>[number], side: 'from' | 'to', translate: TranslateFunction): ReactElement {
  const meta = decl.fields?.[r.field];
  const field = translate(meta?.label ?? `resources.${decl.name}.fields.${r.field}`, { _: r.field });
  const label = translate(`ls.generated.range_${side}`, { field, _: `${field} ${side}` });
  const source = r[side];
  if (r.kind === 'number')
    return <NumberInput key={source} source={source} label={label} min={meta?.min} max={meta?.max} step={meta?.integer ? 1 : 'any'} sx={{ minWidth: 150 }} />;
  return <DateInput key={source} source={source} label={label} />;
}

function useFilters(decl: ResourceDeclaration, extra: ReactElement[] = NO_FILTERS, inputs: Record<string, ComponentType<FieldInputProps>> = NO_FILTER_INPUTS) {
  const search = useSearchFilters();
  const translate = useTranslate();
  return useMemo(() => {
    const filters = Object.entries(decl.fields ?? {})
      .filter(([source, m]) => m.filter && !m.parent && (inputs[source] ?? kindOf(m).Filter))
      .map(([source, meta]) => {
        const Filter = (inputs[source] ?? kindOf(meta).Filter)!;
        return <Filter key={source} source={source} meta={{ ...meta, required: false }} decl={decl} mode="update" label={meta.label} alwaysOn={!!inputs[source]} />;
      });
    // Range filters (FieldMeta.range) a screen does not draw itself: a pair of inputs of the field's kind.
    const drawn = new Set(extra.map((e) => String(e.key)));
    const ranges = (decl.ranges ?? []).filter((r) => !drawn.has(r.from)).flatMap((r) => [rangeFilter(decl, r, 'from', translate), rangeFilter(decl, r, 'to', translate)]);
    return [...(decl.search.length ? search : []), ...filters, ...ranges, ...extra];
  }, [decl, search, extra, inputs, translate]);
}

export interface GeneratedListProps {
  decl: ResourceDeclaration;
  /** Columns drawn otherwise than by their kind (e.g. an invite's status as a coloured chip). */
  cells?: Record<string, ComponentType<CellProps>>;
  /** A last column of buttons for a row (e.g. resend an invite); also below the text of a phone row. */
  rowActions?: ComponentType<{ record: RaRecord }>;
  /** In place of the create button (e.g. members: "Invite" for anyone but root). */
  createAction?: ReactNode;
  /** The columns a phone row shows below the title (default: the first two that read as text). */
  phoneColumns?: string[];
  /** Filters beyond the declared ones (e.g. a date range); a stable array (module level or memoised). */
  extraFilters?: ReactElement[];
  /** Declared filters drawn otherwise than by their kind, shown at once (e.g. an asset's type as a kind); a stable object. */
  filterInputs?: Record<string, ComponentType<FieldInputProps>>;
  /** More buttons in the list's toolbar, inside the list context (e.g. actions on everything the filter matches). */
  toolbarExtra?: ReactNode;
  /** A phone row's title, where the declaration's words need the reader's language (e.g. a lead with no name yet). */
  primaryText?: ComponentType<{ record: RaRecord }>;
  /** false: no generic Export button (a list with an export of its own). */
  exportButton?: boolean;
  /** false: no checkbox column and bulk bar (a list with bulk actions of its own). */
  bulk?: boolean;
  /** List columns hidden until chosen in the Columns menu (a wide table within a 1280 px screen); a stable array. */
  hiddenColumns?: string[];
}

/**
 * The list screen of a declaration: its `list` fields as columns (sortable where `sort`), the prefix search and its
 * filters, 25 rows a page and no pager for one page, rows that open the record only with the update or delete bit, and
 * the create button only with the create bit. Below 600 px the rows become a simple list; there "Select" turns them
 * into checkboxes with the bulk actions in a bar at the foot of the screen (the table's checkbox column is not there).
 */
export function GeneratedList({
  decl,
  cells = {},
  rowActions: RowActions,
  createAction,
  phoneColumns,
  extraFilters,
  filterInputs,
  toolbarExtra,
  primaryText: PrimaryText,
  exportButton = true,
  bulk = true,
  hiddenColumns,
}: GeneratedListProps) {
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const createPath = useCreatePath();
  const { canCreate, canUpdate, canDelete } = useResourceAccess(decl.name);
  const filters = useFilters(decl, extraFilters, filterInputs);
  const canOpen = canUpdate || canDelete;
  const link = (r: RaRecord) => (canOpen ? createPath({ type: 'edit', resource: decl.name, id: r.id }) : false);
  const columns = Object.entries(decl.fields ?? {}).filter(([, m]) => m.list);
  const title = titleField(decl);
  const cellOf = (source: string, meta: FieldMeta) => cells[source] ?? kindOf(meta).Cell;
  // A phone row: the title, then up to two more columns that read as text (not a lone tick or a chip of JSON).
  const secondary = phoneColumns
    ? columns.filter(([f]) => phoneColumns.includes(f))
    : columns.filter(([f, m]) => f !== title && !['boolean', 'secret', 'json'].includes(m.kind)).slice(0, 2);
  // The filter menu offers the filters not shown at once (the search always is).
  const hasFilters = filters.some((f) => !(f.props as { alwaysOn?: boolean }).alwaysOn);
  const create = createAction !== undefined ? createAction : canCreate ? <AddButton decl={decl} /> : null;
  // Views, export, bulk and cURL work on the console's account API (platform-and-flows.md 1 and 2).
  const accountId = useConsoleAccountId();
  const canCurl = useCanCopyCurl();
  const hasBulk = bulk && !!accountId && (canDelete || (canUpdate && bulkFieldsOf(decl).length > 0));
  const [selecting, setSelecting] = useState(false);
  const phoneSelect = small && hasBulk && selecting;
  const primary = (r: RaRecord) => {
    if (PrimaryText) return <PrimaryText record={r} />;
    // A record in words when the declaration says how (a member: names and e-mail).
    if (decl.represent) return titleOf(decl, r);
    const meta = decl.fields?.[title];
    if (!meta) return String(r[title] ?? r.id);
    const Cell = cellOf(title, meta);
    return <Cell record={r} source={title} meta={meta} decl={decl} compact />;
  };
  const secondaryText = (r: RaRecord) =>
    secondary.map(([source, meta], i) => {
      const Cell = cellOf(source, meta);
      return (
        <span key={source}>
          {i > 0 && ' · '}
          <Cell record={r} source={source} meta={meta} decl={decl} compact />
        </span>
      );
    });
  return (
    <List
      resource={decl.name}
      perPage={PAGE_SIZE}
      sort={decl.defaultSort}
      filters={filters.length ? filters : undefined}
      actions={
        // Wraps instead of running off the left edge when a list has many buttons (the leads' on a phone).
        <TopToolbar sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
          {accountId && <ViewsMenu decl={decl} />}
          {!small && <ColumnsButton storeKey={columnsStoreKey(decl.name)} data-testid="columns-button" />}
          {hasFilters && <FilterButton />}
          {small && hasBulk && <SelectModeButton selecting={selecting} onChange={setSelecting} />}
          {toolbarExtra}
          {accountId && exportButton && <ExportButton decl={decl} accountId={accountId} />}
          {accountId && canCurl && <ListCurlButton decl={decl} accountId={accountId} />}
          {accountId && decl.trash && <TrashButton decl={decl} />}
          {create}
        </TopToolbar>
      }
      empty={<ListEmpty text="ls.generated.empty" action={create ?? undefined} />}
      pagination={<SinglePagePagination />}
      exporter={false}
      storeKey={false}
      // A table with more columns than fit (a tablet with the menu open) scrolls inside its card, not the whole page.
      // In select mode on a phone, room below the last row for the bar fixed at the foot of the screen.
      // On a phone react-admin paints the toolbar (search, filter and create) as a card of its own: a bare row instead.
      sx={{
        containerType: 'inline-size',
        '& .RaList-main': { minWidth: 0 },
        '& .RaList-content': { overflowX: 'auto' },
        '& .RaListToolbar-root, & .RaTopToolbar-root': { backgroundColor: 'transparent' },
        pb: phoneSelect ? 16 : undefined,
      }}
    >
      {phoneSelect && accountId ? (
        <PhoneSelectMode
          decl={decl}
          accountId={accountId}
          canUpdate={canUpdate}
          canDelete={canDelete}
          onDone={() => setSelecting(false)}
          primary={primary}
          secondary={secondaryText}
        />
      ) : small ? (
        <SimpleList
          primaryText={primary}
          secondaryText={(r) => (
            <>
              {secondaryText(r)}
              {RowActions && (
                <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
                  <RowActions record={r} />
                </Box>
              )}
            </>
          )}
          rowClick={(_id, _res, r) => link(r)}
        />
      ) : (
        <DataTable
          rowClick={(_id, _res, r) => link(r)}
          storeKey={columnsStoreKey(decl.name)}
          hiddenColumns={hiddenColumns}
          bulkActionButtons={hasBulk}
          bulkActionsToolbar={hasBulk && accountId ? <BulkToolbar decl={decl} accountId={accountId} canUpdate={canUpdate} canDelete={canDelete} /> : undefined}
          hover={canOpen}
        >
          {columns.map(([source, meta]) => {
            const { numeric } = kindOf(meta);
            const Cell = cellOf(source, meta);
            return (
              <DataTable.Col
                key={source}
                source={source}
                label={meta.label}
                disableSort={!meta.sort}
                align={numeric ? 'right' : undefined}
                render={(r: RaRecord) => <Cell record={r} source={source} meta={meta} decl={decl} compact />}
              />
            );
          })}
          {RowActions && <DataTable.Col source="" label="" disableSort align="right" render={(r: RaRecord) => <RowActions record={r} />} />}
        </DataTable>
      )}
    </List>
  );
}

export default GeneratedList;
