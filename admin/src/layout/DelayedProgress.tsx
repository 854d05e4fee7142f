import { useEffect, useState } from 'react';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Box from '@mui/material/Box';

/** Spec 9: the activity indicator appears only after 100 ms, so quick work does not flicker. */
export const ACTIVITY_DELAY_MS = 100;

export function useDelayed(active: boolean, delay = ACTIVITY_DELAY_MS): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), delay);
    return () => clearTimeout(timer);
  }, [active, delay]);
  return active && shown;
}

/** A centred spinner (page loading) or a thin bar at the top of the window (`bar`), after the delay. */
export function DelayedProgress({ bar = false, active = true }: { bar?: boolean; active?: boolean }) {
  const shown = useDelayed(active);
  if (!shown) return null;
  if (bar)
    return (
      <LinearProgress role="progressbar" aria-label="Loading" data-testid="activity-indicator" sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 2000, height: 3 }} />
    );
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 160, width: '100%' }}>
      <CircularProgress aria-label="Loading" data-testid="activity-indicator" />
    </Box>
  );
}
