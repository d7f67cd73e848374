import { describe, expect, it } from 'vitest';
import * as C from './constants';

const TABLE = [
  // §7 calls and caching
  ['UPSTREAM_TIMEOUT_MS', 30_000],
  ['SESSION_STALE_MS', 3_600_000],
  ['SESSION_QUERY_RETRY', false],
  ['CUSTOM_DOMAINS_STALE_MS', 3_600_000],
  ['CUSTOM_DOMAINS_GC_MS', 10_800_000],
  ['WORKSPACE_LIST_STALE_MS', 60_000],
  ['PROJECT_LIST_STALE_MS', 300_000],
  ['PROJECT_STALE_MS', 300_000],
  ['PROJECT_QUERY_RETRY', false],
  ['WORKSPACE_STALE_MS', 60_000],
  ['REFETCH_ON_WINDOW_FOCUS', false],
  // §9 retries
  ['ACTIVE_PROJECT_MAX_RETRIES', 3],
  ['DEFAULT_QUERY_RETRIES', 3],
  ['RETRY_DELAY_BASE_MS', 1_000],
  ['RETRY_DELAY_CAP_MS', 30_000],
  // §2 and §9 UI timings and toasts
  ['LOADING_GRACE_MS', 300],
  ['CUSTOM_DOMAIN_POLL_MS', 30_000],
  ['TOAST_DURATION_DEFAULT_MS', 4_000],
  ['TOAST_DURATION_SUCCESS_MS', 2_000],
  ['TOAST_DURATION_ERROR_MS', 4_000],
  ['TOAST_DURATION_LOADING_MS', Number.POSITIVE_INFINITY],
  ['TOAST_MAX_VISIBLE', 20],
  ['TOAST_WIDTH_PX', 300],
  ['TOAST_POSITION', 'bottom-right'],
  ['TOAST_LOADING_DISMISSIBLE', false],
  // §9 page sizes and domain limits
  ['OAUTH2_CLIENT_PAGE_SIZE_DEFAULT', 25],
  ['DOMAIN_MAX_LENGTH', 253],
  ['DOMAIN_LABEL_LIMIT', 64],
  // §9 analytics
  ['ANALYTICS_FLUSH_INTERVAL_MIN_MS', 250],
  ['ANALYTICS_FLUSH_INTERVAL_MAX_MS', 5_000],
  ['ANALYTICS_FLUSH_INTERVAL_DEFAULT_MS', 3_000],
  ['ANALYTICS_SESSION_IDLE_MIN_S', 60],
  ['ANALYTICS_SESSION_IDLE_MAX_S', 36_000],
  ['ANALYTICS_SESSION_IDLE_DEFAULT_S', 1_800],
  ['ANALYTICS_EVENTS_PER_SECOND', 10],
  ['ANALYTICS_EVENTS_BURST', 100],
  ['ANALYTICS_QUOTA_BLOCK_MS', 60_000],
  ['ANALYTICS_MAX_RETRIES', 10],
  ['ANALYTICS_RETRY_BACKOFF_CAP_MS', 1_800_000],
  ['ANALYTICS_SESSION_MAX_MS', 86_400_000],
  ['ANALYTICS_STRING_CAP', 65_535],
  ['SURVEYS_TIMEOUT_MS', 10_000],
  // §9 images and spacing
  ['IMAGE_DEVICE_SIZES', [640, 750, 828, 1080, 1200, 1920, 2048, 3840]],
  ['IMAGE_SIZES', [16, 32, 48, 64, 96, 128, 256, 384]],
  ['UI_SPACING_UNIT_PX', 8],
  // §2 storage and §4 session
  ['PREFERRED_PLAN_STORAGE_KEY', 'preferred-plan'],
  ['PREFERRED_PLAN_QUERY_PARAM', 'preferred_plan'],
  ['PREFERRED_PLAN_DEFAULT', null],
  ['SESSION_FORBIDDEN_AAL', 'aal2'],
] as const;

describe('spec §2, §7 and §9 constants', () => {
  it.each(TABLE)('%s = %j', (name, value) => {
    expect(C[name]).toEqual(value);
  });

  it('checks every exported constant', () => {
    expect(Object.keys(C).sort()).toEqual(TABLE.map(([name]) => name).sort());
  });
});
