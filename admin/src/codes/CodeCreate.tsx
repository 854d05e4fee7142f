import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedCreate } from '../generated/GeneratedCreate';

/** /console/{a}/codes/new: a group and a title; the server makes the code, which opens on its page with its QR. */
export default function CodeCreate({ decl }: { decl: ResourceDeclaration }) {
  return <GeneratedCreate decl={decl} redirectTo="edit" />;
}
