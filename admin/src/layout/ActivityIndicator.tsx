import { useLoading } from 'react-admin';
import { DelayedProgress } from './DelayedProgress';

/** A thin bar at the top while any API call runs, shown only after 100 ms (spec 9). */
export function ActivityIndicator() {
  const loading = useLoading();
  return <DelayedProgress bar active={loading} />;
}
