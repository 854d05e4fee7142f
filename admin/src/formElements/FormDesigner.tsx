import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { useOwnWidth } from '../layout/useOwnWidth';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import AddIcon from '@mui/icons-material/Add';
import { useLocaleState, useTranslate } from 'react-admin';
import type { ListItemNode } from '../../../resources/answers';
import { rendererTexts } from '../renderer';
import { failureText } from '../providers/failure';
import { ApiRequestError } from '../providers/http';
import { designerApi, type DesignerApi } from './designerApi';
import { DesignerPreview } from './DesignerPreview';
import {
  bodyOf,
  clearedBy,
  draftOf,
  ELEMENT_TYPES,
  ERROR_ORDER,
  fieldsOf,
  isDirty,
  isListType,
  newDraft,
  optionErrorsCleared,
  sameFields,
  specOf,
  storedIds,
  suggestName,
  validateDraft,
  type Draft,
  type DraftFields,
  type ElementRecord,
  type ElementType,
  type ErrorField,
  type ListRecord,
  type OptionDraft,
} from './designerModel';
import { ElementEditor } from './ElementEditor';
import { ElementList, type T } from './ElementList';
import { designerStyles } from './styles';
import { TYPE_ICONS } from './typeIcons';

export interface FormDesignerProps {
  accountId: string;
  formId: string;
  /** With account_form_elements create/update/delete: add, edit, delete and reorder. Without: look only. */
  canEdit: boolean;
}

// ---- state

interface State {
  status: 'loading' | 'ready' | 'failed';
  drafts: Draft[];
  selected: string | null;
  /** Numbers the keys of new elements. */
  seq: number;
}

type Action =
  | { type: 'loading' }
  | { type: 'loaded'; records: ElementRecord[] }
  | { type: 'failed' }
  | { type: 'add'; elementType: ElementType; title: string }
  | { type: 'select'; key: string | null }
  | { type: 'edit'; key: string; patch: Partial<DraftFields> }
  | { type: 'option'; key: string; option: keyof OptionDraft; value: OptionDraft[keyof OptionDraft] }
  | { type: 'errors'; key: string; errors: Record<string, string> }
  | { type: 'saving'; key: string }
  | { type: 'saved'; key: string; record: ElementRecord; sent: DraftFields }
  | { type: 'discard'; key: string }
  | { type: 'remove'; key: string }
  | { type: 'order'; keys: string[] };

const without = (errors: Record<string, string>, fields: ErrorField[]) => {
  if (!fields.some((f) => f in errors)) return errors;
  const out = { ...errors };
  for (const f of fields) delete out[f];
  return out;
};

function reducer(state: State, action: Action): State {
  const update = (key: string, change: (d: Draft) => Draft): State => ({ ...state, drafts: state.drafts.map((d) => (d.key === key ? change(d) : d)) });
  switch (action.type) {
    case 'loading':
      return { ...state, status: 'loading' };
    case 'loaded': {
      const drafts = action.records.map((r) => draftOf(r));
      const selected = state.selected && drafts.some((d) => d.key === state.selected) ? state.selected : (drafts[0]?.key ?? null);
      return { ...state, status: 'ready', drafts, selected };
    }
    case 'failed':
      return { ...state, status: 'failed' };
    case 'add': {
      const key = `new-${state.seq + 1}`;
      const draft = newDraft(key, action.elementType, action.title, state.drafts.map((d) => d.name));
      return { ...state, seq: state.seq + 1, drafts: [...state.drafts, draft], selected: key };
    }
    case 'select':
      return state.selected === action.key ? state : { ...state, selected: action.key };
    case 'edit':
      return update(action.key, (d) => {
        const next: Draft = { ...d, ...action.patch, errors: without(d.errors, clearedBy(action.patch)) };
        if ('name' in action.patch) next.nameTouched = true;
        else if ('title' in action.patch && !d.id && !d.nameTouched) {
          next.name = suggestName(next.title, state.drafts.filter((o) => o.key !== d.key).map((o) => o.name));
        }
        return next;
      });
    case 'option':
      return update(action.key, (d) => ({ ...d, options: { ...d.options, [action.option]: action.value }, errors: without(d.errors, optionErrorsCleared(action.option)) }));
    case 'errors':
      return update(action.key, (d) => ({ ...d, errors: action.errors, saving: false }));
    case 'saving':
      return update(action.key, (d) => ({ ...d, saving: true, errors: {} }));
    case 'saved':
      return update(action.key, (d) => {
        const stored = draftOf(action.record, d.key);
        // typed on while it was saving: keep that, it is simply not saved yet
        return sameFields(d, action.sent) ? stored : { ...d, id: stored.id, stored: stored.stored, nameTouched: true, saving: false, errors: {} };
      });
    case 'discard':
      return update(action.key, (d) => (d.stored ? { ...d, ...fieldsOf(d.stored), errors: {} } : d));
    case 'remove': {
      const index = state.drafts.findIndex((d) => d.key === action.key);
      const drafts = state.drafts.filter((d) => d.key !== action.key);
      const selected = state.selected === action.key ? (drafts[Math.min(index, drafts.length - 1)]?.key ?? null) : state.selected;
      return { ...state, drafts, selected };
    }
    case 'order': {
      const byKey = new Map(state.drafts.map((d) => [d.key, d]));
      const ordered = action.keys.map((k) => byKey.get(k)).filter((d): d is Draft => Boolean(d));
      // anything not named (added meanwhile) stays at the end
      const named = new Set(action.keys);
      return { ...state, drafts: [...ordered, ...state.drafts.filter((d) => !named.has(d.key))] };
    }
  }
}

/** An API failure as the editor's errors: the fields it names, else one text above the buttons. */
function apiErrors(e: unknown, translate: T): Record<string, string> {
  if (e instanceof ApiRequestError && e.body.fields) {
    const known = Object.entries(e.body.fields).filter(([field]) => (ERROR_ORDER as string[]).includes(field) && field !== '_form');
    if (known.length) return Object.fromEntries(known);
  }
  return { _form: failureText(e, translate) };
}

type Panel = 'elements' | 'element' | 'preview';

/** The editor's inputs labelled with the declaration's field labels. */
const FIELD_LABELS: Record<string, string> = { title: 'fe_title', name: 'fe_name', external: 'fe_external_name', type: 'fe_type', required: 'fe_is_required', list: 'fe_listid' };

/**
 * The form designer: the form's elements in order (add, select, delete, reorder by pointer and keyboard), the selected
 * element's editor, and a live preview drawn by the shared FormRenderer with what is typed, saved or not. Mounted on a
 * form's edit page: `<FormDesigner accountId={a} formId={f} canEdit={can('account_form_elements', 'update')} />`.
 */
/** The designer's own width from which it shows three columns, and the list beside tabs (below: tabs only). */
export const WIDE_FROM = 960;
export const MEDIUM_FROM = 560;

export function FormDesigner({ accountId, formId, canEdit }: FormDesignerProps) {
  const translate = useTranslate() as T;
  const [locale] = useLocaleState();
  const theme = useTheme();
  // the field and type labels are the declaration's (resources.form-elements.*), the designer's own words ls.form_designer.*
  const t = useCallback<T>(
    (key, options) => {
      if (key.startsWith('types.')) return translate(`resources.form-elements.options.fe_type.${key.slice(6)}`, options);
      const field = key.startsWith('fields.') ? FIELD_LABELS[key.slice(7)] : undefined;
      return translate(field ? `resources.form-elements.fields.${field}` : `ls.form_designer.${key}`, options);
    },
    [translate],
  );
  const api: DesignerApi = useMemo(() => designerApi(accountId, formId), [accountId, formId]);

  const [state, dispatch] = useReducer(reducer, { status: 'loading', drafts: [], selected: null, seq: 0 });
  const [lists, setLists] = useState<ListRecord[] | null>(null);
  const [trees, setTrees] = useState<ReadonlyMap<string, ListItemNode[]>>(() => new Map());
  const treeRequests = useRef(new Set<string>());
  const [orderBusy, setOrderBusy] = useState(false);
  const orderBusyRef = useRef(false);
  const [focus, setFocus] = useState<{ key: string; n: number; target: 'error' | 'title' } | null>(null);
  const [confirm, setConfirm] = useState<{ key: string; busy: boolean; error?: string } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [panel, setPanel] = useState<Panel>('elements');
  // The layout follows the room the designer has (a console page has its menu beside it), else the window's width.
  const [ownWidth, rootRef] = useOwnWidth();
  const wideWindow = useMediaQuery('(min-width:1200px)');
  const mediumWindow = useMediaQuery('(min-width:768px)');
  const wide = ownWidth !== undefined ? ownWidth >= WIDE_FROM : wideWindow;
  const medium = ownWidth !== undefined ? ownWidth >= MEDIUM_FROM : mediumWindow;

  const stateRef = useRef(state);
  useLayoutEffect(() => {
    stateRef.current = state;
  });
  const announce = useCallback((text: string) => setAnnouncement((prev) => (prev === text ? `${text}\u00a0` : text)), []);

  // ---- loading: the graph (elements in order with their list trees), and the lists for the picker

  const load = useCallback(() => {
    let live = true;
    dispatch({ type: 'loading' });
    api.graph().then(
      (graph) => {
        if (!live) return;
        const found = new Map<string, ListItemNode[]>();
        for (const el of graph.elements) if (el.fe_listid && Array.isArray(el.items)) found.set(el.fe_listid, el.items);
        for (const id of found.keys()) treeRequests.current.add(id);
        setTrees(found);
        dispatch({ type: 'loaded', records: graph.elements });
      },
      () => live && dispatch({ type: 'failed' }),
    );
    api.lists().then(
      (rows) => live && setLists(rows.map((l) => ({ l_id: String(l.l_id ?? (l as { id?: string }).id), l_title: l.l_title, l_name: l.l_name }))),
      () => live && setLists([]),
    );
    return () => {
      live = false;
    };
  }, [api]);
  useEffect(() => load(), [load]);

  // each list an element uses, once
  useEffect(() => {
    for (const d of state.drafts) {
      const id = d.listId;
      if (!isListType(d.type) || !id || treeRequests.current.has(id)) continue;
      treeRequests.current.add(id);
      api.tree(id).then(
        (items) => setTrees((prev) => new Map(prev).set(id, items)),
        () => {
          treeRequests.current.delete(id);
          setTrees((prev) => new Map(prev).set(id, []));
        },
      );
    }
  }, [state.drafts, api]);

  // a warning before leaving with unsaved elements
  const anyDirty = state.drafts.some(isDirty);
  useEffect(() => {
    if (!anyDirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [anyDirty]);

  // ---- actions

  const onSelect = useCallback((key: string) => {
    dispatch({ type: 'select', key });
    setPanel('element');
  }, []);

  const onAdd = useCallback(
    (type: ElementType) => {
      const key = `new-${stateRef.current.seq + 1}`;
      dispatch({ type: 'add', elementType: type, title: t(`types.${type}`) });
      setPanel('element');
      setFocus((f) => ({ key, n: (f?.n ?? 0) + 1, target: 'title' }));
    },
    [t],
  );

  const onEdit = useCallback((key: string, patch: Partial<DraftFields>) => dispatch({ type: 'edit', key, patch }), []);
  const onOption = useCallback(<K extends keyof OptionDraft>(key: string, option: K, value: OptionDraft[K]) => dispatch({ type: 'option', key, option, value }), []);
  const onDiscard = useCallback((key: string) => dispatch({ type: 'discard', key }), []);
  const onDelete = useCallback((key: string) => setConfirm({ key, busy: false }), []);

  /** Stores the order now shown; on failure the previous one comes back. */
  const commitOrder = useCallback(
    async (keys: string[], previous: string[]) => {
      const byKey = new Map(stateRef.current.drafts.map((d) => [d.key, d]));
      const ids = storedIds(keys.map((k) => byKey.get(k)).filter((d): d is Draft => Boolean(d)));
      const before = storedIds(previous.map((k) => byKey.get(k)).filter((d): d is Draft => Boolean(d)));
      if (ids.join() === before.join()) return; // only new elements moved: nothing stored changes
      orderBusyRef.current = true;
      setOrderBusy(true);
      try {
        await api.order(ids);
        announce(t('order_saved'));
      } catch (e) {
        dispatch({ type: 'order', keys: previous });
        announce(t('order_failed', { reason: failureText(e, translate) }));
      } finally {
        orderBusyRef.current = false;
        setOrderBusy(false);
      }
    },
    [api, announce, t, translate],
  );
  const onPreviewOrder = useCallback((keys: string[]) => dispatch({ type: 'order', keys }), []);

  const onSave = useCallback(
    async (key: string) => {
      const { drafts } = stateRef.current;
      const draft = drafts.find((d) => d.key === key);
      if (!draft || draft.saving) return;
      const errors = validateDraft(draft, drafts, formId);
      if (Object.keys(errors).length) {
        dispatch({ type: 'errors', key, errors: errors as Record<string, string> });
        setFocus((f) => ({ key, n: (f?.n ?? 0) + 1, target: 'error' }));
        announce(t('check_fields'));
        return;
      }
      const sent: DraftFields = { ...draft, options: { ...draft.options } };
      dispatch({ type: 'saving', key });
      try {
        const record = draft.id ? await api.update(draft.id, bodyOf(draft)) : await api.create(bodyOf(draft, formId));
        dispatch({ type: 'saved', key, record, sent });
        announce(t('saved_named', { name: record.fe_title }));
        if (!draft.id) {
          // a new element is stored last; put it where it is shown
          const keys = stateRef.current.drafts.map((d) => d.key);
          const ids = keys.map((k) => (k === key ? record.fe_id : stateRef.current.drafts.find((d) => d.key === k)?.id)).filter((id): id is string => Boolean(id));
          if (ids[ids.length - 1] !== record.fe_id && !orderBusyRef.current) {
            try {
              await api.order(ids);
            } catch (e) {
              announce(t('order_failed', { reason: failureText(e, translate) }));
            }
          }
        }
      } catch (e) {
        dispatch({ type: 'errors', key, errors: apiErrors(e, translate) });
        setFocus((f) => ({ key, n: (f?.n ?? 0) + 1, target: 'error' }));
        announce(t('check_fields'));
      }
    },
    [api, announce, formId, t, translate],
  );

  const confirmDelete = async () => {
    if (!confirm) return;
    const draft = stateRef.current.drafts.find((d) => d.key === confirm.key);
    if (!draft) return setConfirm(null);
    const name = draft.title.trim() || draft.name;
    if (draft.id) {
      setConfirm({ ...confirm, busy: true, error: undefined });
      try {
        await api.remove(draft.id);
      } catch (e) {
        setConfirm({ ...confirm, busy: false, error: failureText(e, translate) });
        return;
      }
    }
    setConfirm(null);
    dispatch({ type: 'remove', key: draft.key });
    announce(t('deleted_named', { name }));
  };

  // ---- derived

  const previewElements = useMemo(() => state.drafts.map((d) => specOf(d, trees.get(d.listId))), [state.drafts, trees]);
  const texts = useMemo(() => rendererTexts(translate), [translate]);
  const selectedDraft = state.drafts.find((d) => d.key === state.selected) ?? null;
  const rendererLocale = locale === 'nl' ? 'nl-NL' : 'en-GB';
  const colorScheme = theme.palette.mode === 'dark' ? 'dark' : 'light';
  const confirmDraft = confirm ? state.drafts.find((d) => d.key === confirm.key) : undefined;

  if (state.status === 'loading' && !state.drafts.length) {
    return (
      <Box sx={designerStyles} className="fd-root">
        <p className="fd-loading" role="status">
          <CircularProgress size={18} /> {t('loading')}
        </p>
      </Box>
    );
  }
  if (state.status === 'failed') {
    return (
      <Box sx={designerStyles} className="fd-root">
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => load()}>
              {t('retry')}
            </Button>
          }
        >
          {t('load_failed')}
        </Alert>
      </Box>
    );
  }

  const listPanel = (
    <section className="fd-panel fd-panel--list" aria-labelledby="fd-list-heading">
      <ListHeader count={state.drafts.length} canEdit={canEdit} t={t} onAdd={onAdd} />
      {!canEdit ? <p className="fd-muted">{t('read_only')}</p> : null}
      {state.drafts.length ? (
        <ElementList
          drafts={state.drafts}
          selected={state.selected}
          canEdit={canEdit}
          orderBusy={orderBusy}
          t={t}
          onSelect={onSelect}
          onDelete={onDelete}
          onPreviewOrder={onPreviewOrder}
          onCommitOrder={commitOrder}
          announce={announce}
        />
      ) : (
        <p className="fd-muted">{t('empty')}</p>
      )}
    </section>
  );

  const editorPanel = (
    <section className="fd-panel fd-panel--editor" aria-label={t('element')}>
      {selectedDraft ? (
        <ElementEditor
          draft={selectedDraft}
          lists={lists}
          items={isListType(selectedDraft.type) && selectedDraft.listId ? trees.get(selectedDraft.listId) : undefined}
          canEdit={canEdit}
          focus={focus}
          locale={rendererLocale}
          t={t}
          translate={translate}
          onEdit={onEdit}
          onOption={onOption}
          onSave={onSave}
          onDiscard={onDiscard}
          onDelete={onDelete}
        />
      ) : (
        <p className="fd-muted">{state.drafts.length ? t('select_hint') : t('empty')}</p>
      )}
    </section>
  );

  const previewPanel = (
    <section className="fd-panel fd-panel--preview" aria-labelledby="fd-preview-heading">
      <div className="fd-preview-head">
        <h2 id="fd-preview-heading" className="fd-heading">
          {t('preview')}
        </h2>
        <p className="fd-muted">{t('preview_hint')}</p>
      </div>
      <DesignerPreview elements={previewElements} selectedId={state.selected} texts={texts} locale={rendererLocale} colorScheme={colorScheme} />
    </section>
  );

  // Wide (960 px of its own, or a 1200 px window): three columns; medium (560 px, or a 768 px window): the list beside
  // the element and the preview as tabs; below: tabs
  const tabs: Panel[] = wide ? [] : medium ? ['element', 'preview'] : ['elements', 'element', 'preview'];
  const shown: Panel = tabs.length && !tabs.includes(panel) ? tabs[0] : panel;
  const tabPanel = (name: Panel, content: ReactNode) =>
    tabs.includes(name) ? (
      <div key={name} role="tabpanel" id={`fd-tabpanel-${name}`} aria-labelledby={`fd-tab-${name}`} hidden={shown !== name} className="fd-tabpanel">
        {content}
      </div>
    ) : (
      <div key={name} className="fd-column">
        {content}
      </div>
    );

  return (
    <Box ref={rootRef} sx={designerStyles} className={`fd-root ${wide ? 'fd-root--wide' : medium ? 'fd-root--medium' : 'fd-root--narrow'}`}>
      <div className="fd-sr" aria-live="polite" aria-atomic="true" data-testid="fd-announcer">
        {announcement}
      </div>
      {tabs.length ? (
        <Tabs value={shown} onChange={(_, value: Panel) => setPanel(value)} variant="fullWidth" className="fd-tabs" aria-label={t('elements')}>
          {tabs.map((name) => (
            <Tab key={name} value={name} id={`fd-tab-${name}`} aria-controls={`fd-tabpanel-${name}`} label={t(name === 'elements' ? 'elements' : name === 'element' ? 'element' : 'preview')} />
          ))}
        </Tabs>
      ) : null}
      <div className="fd-grid">
        {wide || medium ? <div className="fd-column">{listPanel}</div> : tabPanel('elements', listPanel)}
        {medium && !wide ? (
          <div className="fd-column">
            {tabPanel('element', editorPanel)}
            {tabPanel('preview', previewPanel)}
          </div>
        ) : (
          <>
            {tabPanel('element', editorPanel)}
            {tabPanel('preview', previewPanel)}
          </>
        )}
      </div>
      {confirm && confirmDraft ? (
      <Dialog open onClose={() => !confirm?.busy && setConfirm(null)} aria-labelledby="fd-delete-title">
        <DialogTitle id="fd-delete-title">{t('delete_title', { name: confirmDraft?.title.trim() || confirmDraft?.name || '' })}</DialogTitle>
        <DialogContent>
          <DialogContentText>{confirmDraft?.id ? t('delete_text') : t('delete_unsaved_text')}</DialogContentText>
          {confirm?.error ? (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {confirm.error}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(null)} disabled={confirm?.busy} autoFocus>
            {translate('ls.common.cancel')}
          </Button>
          <Button color="error" variant="contained" onClick={confirmDelete} disabled={confirm?.busy}>
            {t('delete')}
          </Button>
        </DialogActions>
      </Dialog>
      ) : null}
    </Box>
  );
}

/** The list's heading and the add button with its type menu (mounted only while open: a closed MUI Menu still measures its anchor). */
const ListHeader = memo(function ListHeader({ count, canEdit, t, onAdd }: { count: number; canEdit: boolean; t: T; onAdd: (type: ElementType) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <div className="fd-panel-head">
      <h2 id="fd-list-heading" className="fd-heading">
        {t('elements')} <span className="fd-count">({t('count', { count, smart_count: count })})</span>
      </h2>
      {canEdit ? (
        <>
          <Button size="small" variant="contained" startIcon={<AddIcon />} aria-haspopup="menu" aria-expanded={anchor ? 'true' : undefined} aria-controls={anchor ? 'fd-add-menu' : undefined} onClick={(e) => setAnchor(e.currentTarget)}>
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

export default FormDesigner;
