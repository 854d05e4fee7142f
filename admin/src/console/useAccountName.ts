import { useGetOne } from 'react-admin';
import { useSession } from '../layout/useSession';

/** The account's name: from the caller's memberships, or (a root user in an account it is not a member of) the account. */
export function useAccountName(accountId: string | undefined): string | undefined {
  const { session } = useSession();
  const membership = session?.accounts.find((a) => a.a_id === accountId);
  const { data } = useGetOne<{ id: string; a_name: string }>('accounts', { id: accountId ?? '' }, { enabled: !!accountId && !!session && !membership });
  return membership?.a_name ?? data?.a_name;
}
