import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import { Form, LinkBase, useGetList, useGetMany, useNotify, useTranslate } from 'react-admin';
import { carouselGroups, carousels } from '../../../resources/carousels';
import type { FieldMeta } from '../../../resources/types';
import { ReferenceInput } from '../generated/inputs';
import { titleOf } from '../generated/rules';
import { useResourceAccess } from '../generated/access';
import { SortableList } from '../layout/SortableList';
import { consolePath } from '../console/access';
import { useOrderedItems } from '../assets/useOrderedItems';

type Row = Record<string, unknown> & { id: string };

const CAROUSEL: FieldMeta = { kind: 'reference', reference: carousels.name, required: true, label: 'ls.carouselGroups.carousel' };

/** Adds a carousel the group does not have yet (the generated reference picker, those already in excluded). */
function AddCarousel({ present, onAdd }: { present: string[]; onAdd: (id: string) => Promise<void> }) {
  const translate = useTranslate();
  const [key, setKey] = useState(0);
  const submit = async (values: Record<string, unknown>) => {
    const id = values.gi_carouselid as string | undefined;
    if (!id) return { gi_carouselid: 'error_required' };
    try {
      await onAdd(id);
      setKey((k) => k + 1);
    } catch (e) {
      return { gi_carouselid: (e as Error).message };
    }
  };
  return (
    <Form key={key} onSubmit={submit} noValidate>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' }, maxWidth: 640 }}>
        <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
          <ReferenceInput source="gi_carouselid" meta={CAROUSEL} decl={carouselGroups} mode="create" label={CAROUSEL.label} exclude={present} />
        </Box>
        <Button type="submit" variant="outlined" startIcon={<AddIcon />} sx={{ mt: { sm: 1 }, flexShrink: 0 }} data-testid="group-carousels-add">
          {translate('ls.carouselGroups.add')}
        </Button>
      </Box>
    </Form>
  );
}

/**
 * A carousel group's carousels in the order the player plays them (account-console.md: carousel-groups, GET/PUT
 * /carousel-groups/{id}/items): drag or keyboard to reorder, add one the group does not have, remove one (the
 * carousel itself stays). Each change stores the complete order; a failure puts the stored one back.
 */
export function GroupCarousels({ accountId, groupId }: { accountId: string; groupId: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { canUpdate } = useResourceAccess(carouselGroups.name);
  const { ids, isPending, saving, store } = useOrderedItems(accountId, 'carousel-groups', groupId);
  const { data: found = [] } = useGetMany<Row>(carousels.name, { ids }, { enabled: ids.length > 0 });
  const { total: carouselCount } = useGetList(carousels.name, { pagination: { page: 1, perPage: 1 } });
  const byId = new Map(found.map((c) => [c.id, c]));
  const rows: Row[] = ids.map((id) => byId.get(id) ?? { id, c_title: '…', c_name: '' });
  const nameOf = (c: Row) => titleOf(carousels, c);

  async function remove(c: Row) {
    await store(ids.filter((id) => id !== c.id))
      .then(() => notify(translate('ls.carouselGroups.removed', { name: nameOf(c) }), { type: 'success' }))
      .catch(() => undefined);
  }

  return (
    <Box data-testid="group-carousels">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('ls.carouselGroups.help')}
      </Typography>
      {!isPending && ids.length === 0 && (
        <Typography sx={{ mb: 2 }} data-testid="group-carousels-empty">
          {translate('ls.carouselGroups.empty')}
        </Typography>
      )}
      {ids.length > 0 && (
        <Box sx={{ mb: 3, maxWidth: 720 }}>
          <SortableList
            items={rows}
            nameOf={nameOf}
            canMove={canUpdate && ids.length > 1}
            label={translate('ls.carouselGroups.list_label')}
            onCommit={store}
            testId="group-carousels-list"
            renderRow={(c, index) => (
              <>
                <Typography component="span" color="text.secondary" sx={{ width: 28, textAlign: 'right', flexShrink: 0 }}>
                  {index + 1}.
                </Typography>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography component="div" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }} data-testid="group-carousel-title">
                    {nameOf(c)}
                  </Typography>
                  <Typography component="div" variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
                    {String(c.c_name ?? '')}
                  </Typography>
                </Box>
                <Tooltip title={translate('ls.carouselGroups.open', { name: nameOf(c) })}>
                  <IconButton component={LinkBase} to={consolePath(accountId, `carousels/${c.id}`)} aria-label={translate('ls.carouselGroups.open', { name: nameOf(c) })}>
                    <EditIcon />
                  </IconButton>
                </Tooltip>
                {canUpdate && (
                  <Tooltip title={translate('ls.carouselGroups.remove', { name: nameOf(c) })}>
                    <span>
                      <IconButton onClick={() => void remove(c)} disabled={saving} aria-label={translate('ls.carouselGroups.remove', { name: nameOf(c) })} color="error">
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
      {canUpdate &&
        carouselCount !== undefined &&
        (carouselCount === 0 ? (
          <Typography color="text.secondary">
            {translate('ls.carouselGroups.no_carousels')}{' '}
            <Link component={LinkBase} to={consolePath(accountId, 'carousels/new')}>
              {translate('ls.carouselGroups.create_carousel')}
            </Link>
          </Typography>
        ) : carouselCount <= ids.length ? (
          <Typography color="text.secondary" data-testid="group-carousels-all">
            {translate('ls.carouselGroups.all_added')}
          </Typography>
        ) : (
          <AddCarousel present={ids} onAdd={(id) => store([...ids, id])} />
        ))}
    </Box>
  );
}
