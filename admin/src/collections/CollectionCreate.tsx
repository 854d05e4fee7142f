import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedCreate } from '../generated/GeneratedCreate';

/** /console/{a}/collections/new: title and name; a saved collection opens on its page to add its assets. */
export default function CollectionCreate({ decl }: { decl: ResourceDeclaration }) {
  return <GeneratedCreate decl={decl} redirectTo="edit" />;
}
