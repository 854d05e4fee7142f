import { memo } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { ListRecord } from './designerModel';
import type { OnEdit } from './ElementEditor';
import type { T } from './ElementList';

/** The list a list-type element offers (ElementEditor), a search among the account's lists. */
const ListPicker = memo(function ListPicker({
  id,
  draftKey,
  lists,
  loading,
  listId,
  error,
  help,
  t,
  onEdit,
}: {
  id: string;
  draftKey: string;
  lists: readonly ListRecord[];
  loading: boolean;
  listId: string;
  error?: string;
  help: string;
  t: T;
  onEdit: OnEdit;
}) {
  return (
    <Autocomplete
      id={id}
      options={lists}
      value={lists.find((l) => l.l_id === listId) ?? null}
      onChange={(_, value) => onEdit(draftKey, { listId: value?.l_id ?? '' })}
      getOptionLabel={(l) => l.l_title}
      getOptionKey={(l) => l.l_id}
      isOptionEqualToValue={(a, b) => a.l_id === b.l_id}
      loading={loading}
      noOptionsText={t('fields.no_lists')}
      renderOption={({ key: optionKey, ...rest }, l) => (
        <li key={optionKey} {...rest}>
          <span>
            {l.l_title}
            {l.l_name ? <span className="fd-muted"> · {l.l_name}</span> : null}
          </span>
        </li>
      )}
      renderInput={(params) => <TextField {...params} label={t('fields.list')} required size="small" error={Boolean(error)} helperText={error ?? help} />}
    />
  );
});

export default ListPicker;
