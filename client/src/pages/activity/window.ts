import { ACTIVITY_RANGES, bucketStarts, parseResolution, type ActivityRange } from '../../../../shared/domain/metrics';

/** The resolutions the switch offers, in the words it shows them with. */
export const RESOLUTIONS: Record<string, string> = { '15m': '15 minutes', '1h': 'Hourly', '6h': 'Every 6 hours', '1d': 'Daily', '7d': 'Weekly' };

/** The window a range reads: it ends at the next whole minute after `now` (so one page's queries share it). */
export function activityWindow(now: number, range: ActivityRange): { from: string; to: string } {
  const to = Math.ceil((now + 1) / 60_000) * 60_000;
  return { from: new Date(to - ACTIVITY_RANGES[range].ms).toISOString(), to: new Date(to).toISOString() };
}

/** The resolutions that chart `range` with at least four and at most 200 buckets (the API allows more; a chart shows no more). */
export function resolutionsFor(range: ActivityRange): string[] {
  const { from, to } = activityWindow(0, range);
  return Object.keys(RESOLUTIONS).filter((r) => {
    const starts = bucketStarts(new Date(from), new Date(to), parseResolution(r)!);
    return starts !== null && starts.length >= 4 && starts.length <= 200;
  });
}
