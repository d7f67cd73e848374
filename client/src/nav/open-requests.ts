/**
 * Which trigger a user activated before the frame's overlays arrived (use-overlays): the overlay it opens
 * reads this when it mounts, opens at once, and clears it. Apart from use-overlays, so the overlays' own
 * modules need not import the module that loads them.
 */
let openOnArrival: string | null = null;

export function markOpenRequested(testId: string): void {
  openOnArrival = testId;
}

export function anyOpenRequested(): boolean {
  return openOnArrival !== null;
}

/** True when this trigger's overlay was asked for before the code arrived. */
export function isOpenRequested(testId: string): boolean {
  return openOnArrival === testId;
}

export function clearOpenRequest(testId: string): void {
  if (openOnArrival === testId) openOnArrival = null;
}
