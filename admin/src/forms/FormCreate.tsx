import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedCreate } from '../generated/GeneratedCreate';

/** /console/{a}/forms/new: title and data name; a saved form opens in its designer to add elements. */
export default function FormCreate({ decl }: { decl: ResourceDeclaration }) {
  return <GeneratedCreate decl={decl} redirectTo="edit" />;
}
