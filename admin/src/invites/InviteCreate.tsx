import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedCreate } from '../generated/GeneratedCreate';
import { useRoleField } from '../members/useRoleField';

/**
 * /console/{a}/invites/new: e-mail, names and the role (a role other than member needs set_role, never above the
 * caller's own). Saving mails the link and returns to the list.
 */
export default function InviteCreate({ decl }: { decl: ResourceDeclaration }) {
  const role = useRoleField();
  return <GeneratedCreate decl={decl} form={{ maxWidth: 720, overrides: { iv_role: role } }} />;
}
