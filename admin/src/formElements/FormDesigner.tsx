import { useCallback, useMemo, useReducer, useState } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTheme } from '@mui/material/styles';
import { useLocaleState, useTranslate } from 'react-admin';
import { rendererTexts } from '../renderer';
import { failureText } from '../providers/failure';
import { ApiRequestError } from '../providers/http';
import { ConfirmDeleteDialog } from '../editing/ConfirmDeleteDialog';
import { LiveRegion } from '../editing/LiveRegion';
import { LoadFailed } from '../editing/LoadFailed';
import { useAnnouncer } from '../editing/useAnnouncer';
import { useLatest } from '../editing/useLatest';
import { useUnsavedChangesGuard } from '../editing/useUnsavedChangesGuard';
import { designerApi, type DesignerApi } from './designerApi';
import { DesignerPanels, type Panel } from './DesignerPanels';
import { DesignerPreview } from './DesignerPreview';
import { ERROR_ORDER, isDirty, isListType, specOf, type DraftFields, type ElementType, type OptionDraft } from './designerModel';
import { initialState, reducer } from './designerState';
import { ElementEditor } from './ElementEditor';
import { ElementList, type T } from './ElementList';
import { ListHeader } from './ListHeader';
import { designerStyles } from './styles';
import { useDeleteElement } from './useDeleteElement';
import { useDesignerData } from './useDesignerData';
import { useDesignerLayout } from './useDesignerLayout';
import { useElementSaving } from './useElementSaving';
import { useFieldFocus } from './useFieldFocus';

export { MEDIUM_FROM, WIDE_FROM } from './useDesignerLayout';

export interface FormDesignerProps {
  accountId: string;
  formId: string;
  /** With account_form_elements create/update/delete: add, edit, delete and reorder. Without: look only. */
  canEdit: boolean;
}

/** An API failure as the editor's errors: the fields it names, else one text above the buttons. */
function apiErrors(e: unknown, translate: T): Record<string, string> {
  if (e instanceof ApiRequestError && e.body.fields) {
    const known = Object.entries(e.body.fields).filter(([field]) => (ERROR_ORDER as string[]).includes(field) && field !== '_form');
    if (known.length) return Object.fromEntries(known);
  }
  return { _form: failureText(e, translate) };
}

/** The editor's inputs labelled with the declaration's field labels. */
const FIELD_LABELS: Record<string, string> = { title: 'fe_title', name: 'fe_name', external: 'fe_external_name', type: 'fe_type', required: 'fe_is_required', list: 'fe_listid' };

/**
 * The form designer: the form's elements in order (add, select, delete, reorder by pointer and keyboard), the selected
 * element's editor, and a live preview drawn by the shared FormRenderer with what is typed, saved or not. Mounted on a
 * form's edit page: `<FormDesigner accountId={a} formId={f} canEdit={can('account_form_elements', 'update')} />`.
 */
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
  const failure = useCallback((e: unknown) => failureText(e, translate), [translate]);
  const fieldErrors = useCallback((e: unknown) => apiErrors(e, translate), [translate]);
  const api: DesignerApi = useMemo(() => designerApi(accountId, formId), [accountId, formId]);

  const [state, dispatch] = useReducer(reducer, initialState);
  const [focus, focusOn] = useFieldFocus();
  const [announcement, announce] = useAnnouncer();
  const [panel, setPanel] = useState<Panel>('elements');
  const { rootRef, wide, medium } = useDesignerLayout();
  const stateRef = useLatest(state);

  const { load, lists, trees } = useDesignerData(api, state.drafts, dispatch);
  // a warning before leaving with unsaved elements
  useUnsavedChangesGuard(state.drafts.some(isDirty));
  const saving = useElementSaving({ api, formId, stateRef, dispatch, announce, focusOn, t, failure, fieldErrors });
  const deletion = useDeleteElement(api, stateRef, dispatch, announce, t, failure);

  const onSelect = useCallback((key: string) => {
    dispatch({ type: 'select', key });
    setPanel('element');
  }, []);
  const onAdd = useCallback(
    (type: ElementType) => {
      const key = `new-${stateRef.current.seq + 1}`;
      dispatch({ type: 'add', elementType: type, title: t(`types.${type}`) });
      setPanel('element');
      focusOn(key, 'title');
    },
    [t, focusOn, stateRef],
  );
  const onEdit = useCallback((key: string, patch: Partial<DraftFields>) => dispatch({ type: 'edit', key, patch }), []);
  const onOption = useCallback(<K extends keyof OptionDraft>(key: string, option: K, value: OptionDraft[K]) => dispatch({ type: 'option', key, option, value }), []);
  const onDiscard = useCallback((key: string) => dispatch({ type: 'discard', key }), []);

  const previewElements = useMemo(() => state.drafts.map((d) => specOf(d, trees.get(d.listId))), [state.drafts, trees]);
  const texts = useMemo(() => rendererTexts(translate), [translate]);
  const selectedDraft = state.drafts.find((d) => d.key === state.selected) ?? null;
  const rendererLocale = locale === 'nl' ? 'nl-NL' : 'en-GB';
  const { confirm } = deletion;
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
        <LoadFailed retryLabel={t('retry')} onRetry={() => load()}>
          {t('load_failed')}
        </LoadFailed>
      </Box>
    );
  }

  return (
    <Box ref={rootRef} sx={designerStyles} className={`fd-root ${wide ? 'fd-root--wide' : medium ? 'fd-root--medium' : 'fd-root--narrow'}`}>
      <LiveRegion className="fd-sr" testId="fd-announcer" text={announcement} />
      <DesignerPanels
        wide={wide}
        medium={medium}
        panel={panel}
        onPanel={setPanel}
        t={t}
        list={
          <section className="fd-panel fd-panel--list" aria-labelledby="fd-list-heading">
            <ListHeader count={state.drafts.length} canEdit={canEdit} t={t} onAdd={onAdd} />
            {!canEdit ? <p className="fd-muted">{t('read_only')}</p> : null}
            {state.drafts.length ? (
              <ElementList
                drafts={state.drafts}
                selected={state.selected}
                canEdit={canEdit}
                orderBusy={saving.orderBusy}
                t={t}
                onSelect={onSelect}
                onDelete={deletion.onDelete}
                onPreviewOrder={saving.onPreviewOrder}
                onCommitOrder={saving.commitOrder}
                announce={announce}
              />
            ) : (
              <p className="fd-muted">{t('empty')}</p>
            )}
          </section>
        }
        editor={
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
                onSave={saving.onSave}
                onDiscard={onDiscard}
                onDelete={deletion.onDelete}
              />
            ) : (
              <p className="fd-muted">{state.drafts.length ? t('select_hint') : t('empty')}</p>
            )}
          </section>
        }
        preview={
          <section className="fd-panel fd-panel--preview" aria-labelledby="fd-preview-heading">
            <div className="fd-preview-head">
              <h2 id="fd-preview-heading" className="fd-heading">
                {t('preview')}
              </h2>
              <p className="fd-muted">{t('preview_hint')}</p>
            </div>
            <DesignerPreview
              elements={previewElements}
              selectedId={state.selected}
              texts={texts}
              locale={rendererLocale}
              colorScheme={theme.palette.mode === 'dark' ? 'dark' : 'light'}
            />
          </section>
        }
      />
      {confirm && confirmDraft ? (
        <ConfirmDeleteDialog
          open
          titleId="fd-delete-title"
          title={t('delete_title', { name: confirmDraft.title.trim() || confirmDraft.name || '' })}
          text={confirmDraft.id ? t('delete_text') : t('delete_unsaved_text')}
          error={confirm.error}
          busy={confirm.busy}
          cancelLabel={translate('ls.common.cancel')}
          confirmLabel={t('delete')}
          focusCancel
          onCancel={deletion.cancel}
          onConfirm={() => void deletion.confirmDelete()}
        />
      ) : null}
    </Box>
  );
}

export default FormDesigner;
