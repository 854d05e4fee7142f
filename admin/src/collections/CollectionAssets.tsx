import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import { LinkBase, useGetMany, useNotify, useTranslate } from 'react-admin';
import { COLLECTION_MAX_ASSETS } from '../../../resources/collections';
import { useResourceAccess } from '../generated/access';
import { SortableList } from '../layout/SortableList';
import { consolePath } from '../console/access';
import type { AssetRecord } from '../assets/assetsApi';
import { useOrderedItems } from '../assets/useOrderedItems';
import { AssetThumb } from '../assets/AssetThumb';
import { AssetPickerDialog } from '../assets/AssetPicker';

/**
 * A collection's assets in order (account-console.md: collections, GET/PUT /collections/{id}/assets): drag a row's
 * handle (or lift it with Space and move it with the arrows) to reorder, add assets from a multi-select picker, remove
 * one from the collection (the asset itself stays). Every change stores the complete order at once; a failure puts
 * the stored order back. Changing needs the collections update bit.
 */
export function CollectionAssets({ accountId, collectionId }: { accountId: string; collectionId: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { canUpdate } = useResourceAccess('collections');
  const { ids, isPending, saving, store } = useOrderedItems(accountId, 'collections', collectionId);
  const { data: assets = [] } = useGetMany<AssetRecord>('assets', { ids }, { enabled: ids.length > 0 });
  const [adding, setAdding] = useState(false);
  const byId = new Map(assets.map((a) => [a.id, a]));
  const rows = ids.map((id) => byId.get(id) ?? ({ id, as_title: '…', as_name: '', kind: 'other', url: '', thumbnail_url: null } as unknown as AssetRecord));
  const nameOf = (a: AssetRecord) => a.as_title;

  async function add(chosen: AssetRecord[]) {
    setAdding(false);
    const next = [...ids, ...chosen.map((a) => a.id).filter((id) => !ids.includes(id))];
    if (next.length > COLLECTION_MAX_ASSETS) {
      notify(translate('ls.collections.too_many', { max: COLLECTION_MAX_ASSETS }), { type: 'error' });
      return;
    }
    await store(next)
      .then(() => notify(translate('ls.collections.added', { smart_count: chosen.length, count: chosen.length }), { type: 'success' }))
      .catch(() => undefined);
  }

  async function remove(asset: AssetRecord) {
    await store(ids.filter((id) => id !== asset.id))
      .then(() => notify(translate('ls.collections.removed', { name: asset.as_title }), { type: 'success' }))
      .catch(() => undefined);
  }

  return (
    <Box data-testid="collection-assets">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('ls.collections.help')}
      </Typography>
      {!isPending && ids.length === 0 && (
        <Typography sx={{ mb: 2 }} data-testid="collection-assets-empty">
          {translate('ls.collections.empty')}
        </Typography>
      )}
      {ids.length > 0 && (
        <Box sx={{ mb: 2, maxWidth: 760 }}>
          <SortableList
            items={rows}
            nameOf={nameOf}
            canMove={canUpdate && ids.length > 1}
            label={translate('ls.collections.list_label')}
            onCommit={store}
            testId="collection-assets-list"
            renderRow={(asset, index) => (
              <>
                <Typography component="span" color="text.secondary" sx={{ width: 28, textAlign: 'right', flexShrink: 0 }}>
                  {index + 1}.
                </Typography>
                <AssetThumb asset={asset} size={48} />
                <Box sx={{ flex: 1, minWidth: 0, py: 0.5 }}>
                  <Typography component="div" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }} data-testid="collection-asset-title">
                    {asset.as_title}
                  </Typography>
                  <Typography component="div" variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
                    {asset.as_name}
                    {asset.kind && asset.kind !== 'other' ? ` · ${translate(`ls.assets.kinds.${asset.kind}`)}` : ''}
                  </Typography>
                </Box>
                <Tooltip title={translate('ls.collections.open', { name: asset.as_title })}>
                  <IconButton component={LinkBase} to={consolePath(accountId, `assets/${asset.id}`)} aria-label={translate('ls.collections.open', { name: asset.as_title })}>
                    <EditIcon />
                  </IconButton>
                </Tooltip>
                {canUpdate && (
                  <Tooltip title={translate('ls.collections.remove', { name: asset.as_title })}>
                    <span>
                      <IconButton
                        onClick={() => void remove(asset)}
                        disabled={saving}
                        aria-label={translate('ls.collections.remove', { name: asset.as_title })}
                        color="error"
                        data-testid="collection-asset-remove"
                      >
                        <RemoveIcon />
                      </IconButton>
                    </span>
                  </Tooltip>
                )}
              </>
            )}
          />
        </Box>
      )}
      {canUpdate && (
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setAdding(true)} disabled={saving} data-testid="collection-add-assets">
          {translate('ls.collections.add')}
        </Button>
      )}
      {adding && (
        <AssetPickerDialog open multiple title={translate('ls.collections.add_title')} exclude={ids} onClose={() => setAdding(false)} onChoose={(chosen) => void add(chosen)} />
      )}
    </Box>
  );
}
