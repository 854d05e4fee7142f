import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedCreate } from '../generated/GeneratedCreate';

/** /console/{a}/carousel-groups/new: title and standby carousel; a saved group opens on its page for its carousels and codes. */
export default function CarouselGroupCreate({ decl }: { decl: ResourceDeclaration }) {
  return <GeneratedCreate decl={decl} redirectTo="edit" />;
}
