import { useEffect, useState } from 'react';
import { LOADING_GRACE_MS } from '../../../shared/constants';

/** True once `active` has stayed true for the grace period (spec §2: indicators wait 300 ms). */
export function useGrace(active: boolean, graceMs: number = LOADING_GRACE_MS): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    if (!active) {
      setElapsed(false);
      return;
    }
    const timer = window.setTimeout(() => setElapsed(true), graceMs);
    return () => window.clearTimeout(timer);
  }, [active, graceMs]);
  return active && elapsed;
}
