import { Create, useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedForm, type GeneratedFormProps } from './GeneratedForm';
import { bodyFor } from './rules';
import { useSaveHandlers } from './save';

export interface GeneratedCreateProps {
  decl: ResourceDeclaration;
  /** Changes to the form of a hand-written screen (overrides, content below the fields). */
  form?: Partial<Omit<GeneratedFormProps, 'decl' | 'mode' | 'canDelete'>>;
  /** Where a saved record goes: the list (default) or its own edit page (to go on with its parts: a form's elements). */
  redirectTo?: 'list' | 'edit';
}

/** The create screen of a declaration: the generated form with the create schema; saving returns to the list. */
export function GeneratedCreate({ decl, form, redirectTo = 'list' }: GeneratedCreateProps) {
  const translate = useTranslate();
  const handlers = useSaveHandlers(decl, 'create', { redirectTo });
  return (
    <Create
      resource={decl.name}
      title={translate('ra.page.create', { name: translate(`resources.${decl.name}.name`, { smart_count: 1, _: decl.name }) })}
      transform={(values: Record<string, unknown>) => bodyFor(decl, 'create', values)}
      mutationOptions={handlers}
    >
      <GeneratedForm decl={decl} mode="create" canSave {...form} canDelete={false} />
    </Create>
  );
}

export default GeneratedCreate;
