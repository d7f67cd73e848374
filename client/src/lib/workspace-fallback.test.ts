import { describe, expect, it } from 'vitest';
import { withForbiddenFallback, type WorkspaceQueryLike } from './workspace-fallback';

const failed = (status: number): WorkspaceQueryLike<{ name: string }> => ({
  data: undefined,
  error: { data: { httpStatus: status }, message: 'refused' },
  isPending: false,
  isError: true,
  isSuccess: false,
  isRefetching: false,
  refetch: () => undefined,
});

describe('workspace loading (spec: a 403 yields a fallback value)', () => {
  it('turns a 403 into the null fallback, without an error', () => {
    expect(withForbiddenFallback(failed(403))).toMatchObject({ data: null, error: null, isError: false, isSuccess: true, isPending: false });
  });

  it('keeps every other error an error, and a loaded workspace as it is', () => {
    for (const status of [401, 404, 500, 502]) expect(withForbiddenFallback(failed(status))).toMatchObject({ isError: true, data: undefined });
    const loaded: WorkspaceQueryLike<{ name: string }> = { ...failed(0), data: { name: 'Acme' }, error: null, isError: false, isSuccess: true };
    expect(withForbiddenFallback(loaded)).toBe(loaded);
  });
});
