import { memo, useState } from 'react';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import AddIcon from '@mui/icons-material/Add';
import { ELEMENT_TYPES, type ElementType } from './designerModel';
import type { T } from './ElementList';
import { TYPE_ICONS } from './typeIcons';

/** The list's heading and the add button with its type menu (mounted only while open: a closed MUI Menu still measures its anchor). */
export const ListHeader = memo(function ListHeader({ count, canEdit, t, onAdd }: { count: number; canEdit: boolean; t: T; onAdd: (type: ElementType) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <div className="fd-panel-head">
      <h2 id="fd-list-heading" className="fd-heading">
        {t('elements')} <span className="fd-count">({t('count', { count, smart_count: count })})</span>
      </h2>
      {canEdit ? (
        <>
          <Button
            size="small"
            variant="contained"
            startIcon={<AddIcon />}
            aria-haspopup="menu"
            aria-expanded={anchor ? 'true' : undefined}
            aria-controls={anchor ? 'fd-add-menu' : undefined}
            onClick={(e) => setAnchor(e.currentTarget)}
          >
            {t('add')}
          </Button>
          {anchor ? (
            <Menu id="fd-add-menu" anchorEl={anchor} open onClose={() => setAnchor(null)}>
              {ELEMENT_TYPES.map((type) => {
                const Icon = TYPE_ICONS[type];
                return (
                  <MenuItem
                    key={type}
                    onClick={() => {
                      setAnchor(null);
                      onAdd(type);
                    }}
                  >
                    <Icon fontSize="small" className="fd-menu-icon" aria-hidden="true" />
                    {t(`types.${type}`)}
                  </MenuItem>
                );
              })}
            </Menu>
          ) : null}
        </>
      ) : null}
    </div>
  );
});
