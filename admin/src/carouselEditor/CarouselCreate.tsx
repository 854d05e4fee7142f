import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedCreate } from '../generated/GeneratedCreate';

/** /console/{a}/carousels/new: title and name; a saved carousel opens in its editor to add variants and slides. */
export default function CarouselCreate({ decl }: { decl: ResourceDeclaration }) {
  return <GeneratedCreate decl={decl} redirectTo="edit" />;
}
