import { useQuery } from '@tanstack/react-query';
import { loadSession, type Session } from '../providers/session';

/** The cached session inside the admin (react-query over the authProvider's cache). */
export function useSession(): { session: Session | null | undefined; isPending: boolean } {
  const { data, isPending } = useQuery({ queryKey: ['ls.session'], queryFn: () => loadSession(), staleTime: Infinity });
  return { session: data, isPending };
}
