import { describe, expect, it, vi } from 'vitest';
import { PREFERRED_PLAN_STORAGE_KEY } from '../../../shared/constants';
import { applyShellParams, readPreferredPlan, type ShellParamEffects } from './shell-params';

function effects(overrides: Partial<ShellParamEffects> = {}) {
  const stored = new Map<string, string>();
  const target = {} as Window & { dataLayer?: unknown[] };
  const base: ShellParamEffects = {
    loadUser: vi.fn(async () => ({ id: 'user-1', email: 'a@example.com', name: 'A' })),
    analytics: { identify: vi.fn() },
    storage: { setItem: (k: string, v: string) => void stored.set(k, v) },
    replaceUrl: vi.fn(),
    dataLayerTarget: target,
    ...overrides,
  };
  return { base, stored, target };
}

describe('applyShellParams', () => {
  it('does nothing on a plain URL', () => {
    const { base } = effects();
    expect(applyShellParams('/projects', base)).toEqual([]);
    expect(base.replaceUrl).not.toHaveBeenCalled();
  });

  it('shows the after-recovery toast and keeps the URL', () => {
    const { base } = effects();
    expect(applyShellParams('/?after-recovery=true', base)).toEqual(['after-recovery-toast']);
    expect(base.replaceUrl).not.toHaveBeenCalled();
    expect(applyShellParams('/?after-recovery=false', base)).toEqual([]);
  });

  it('identifies after login and removes only that parameter', async () => {
    const { base, target } = effects();
    const done = applyShellParams('/projects/p/get-started?tab=x&after-login=true#top', base);
    expect(done).toEqual(['identify', 'params-removed']);
    expect(base.replaceUrl).toHaveBeenCalledWith('/projects/p/get-started?tab=x#top');
    await vi.waitFor(() => expect(base.analytics.identify).toHaveBeenCalledWith('user-1', { email: 'a@example.com', name: 'A' }));
    expect(target.dataLayer).toBeUndefined();
  });

  it('pushes sign_up after registration', () => {
    const { base, target } = effects();
    applyShellParams('/?after-registration=true', base);
    expect(target.dataLayer).toEqual([{ event: 'sign_up' }]);
    expect(base.replaceUrl).toHaveBeenCalledWith('/');
  });

  it('stores preferred_plan under preferred-plan', () => {
    const { base, stored } = effects();
    applyShellParams('/?preferred_plan=Growth%400', base);
    expect(stored.get(PREFERRED_PLAN_STORAGE_KEY)).toBe('Growth@0');
  });

  it('reads the preferred plan, null by default', () => {
    expect(readPreferredPlan({ getItem: () => null })).toBeNull();
    expect(readPreferredPlan({ getItem: () => 'Production@0' })).toBe('Production@0');
  });
});
