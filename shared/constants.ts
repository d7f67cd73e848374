/** Spec §2, §7 and §9 numbers: one named constant each. */

// §7 calls
export const UPSTREAM_TIMEOUT_MS = 30_000;

// §7 caching (client query defaults)
export const SESSION_STALE_MS = 60 * 60 * 1000;
export const CUSTOM_DOMAINS_STALE_MS = 60 * 60 * 1000;
export const CUSTOM_DOMAINS_GC_MS = 3 * 60 * 60 * 1000;
export const WORKSPACE_LIST_STALE_MS = 60_000;
export const PROJECT_LIST_STALE_MS = 300_000;
export const PROJECT_STALE_MS = 300_000;
export const WORKSPACE_STALE_MS = 60_000;
export const REFETCH_ON_WINDOW_FOCUS = false;

// §9 retries
export const ACTIVE_PROJECT_MAX_RETRIES = 3;
export const DEFAULT_QUERY_RETRIES = 3;
export const RETRY_DELAY_CAP_MS = 30_000;
/** First retry delay of the exponential default (1 s, 2 s, 4 s, …, capped at RETRY_DELAY_CAP_MS). */
export const RETRY_DELAY_BASE_MS = 1_000;
/** §7: the session query and the single-project query are not retried. */
export const SESSION_QUERY_RETRY = false;
export const PROJECT_QUERY_RETRY = false;

// §2 and §9 UI timings
export const LOADING_GRACE_MS = 300;
export const CUSTOM_DOMAIN_POLL_MS = 30_000;
export const TOAST_DURATION_DEFAULT_MS = 4_000;
export const TOAST_DURATION_SUCCESS_MS = 2_000;
export const TOAST_DURATION_ERROR_MS = 4_000;
export const TOAST_DURATION_LOADING_MS = Number.POSITIVE_INFINITY;
export const TOAST_MAX_VISIBLE = 20;
export const TOAST_WIDTH_PX = 300;
export const TOAST_POSITION = 'bottom-right' as const;
/** §2: every toast has a dismiss button except loading toasts. */
export const TOAST_LOADING_DISMISSIBLE = false;

// §9 page sizes and limits
export const OAUTH2_CLIENT_PAGE_SIZE_DEFAULT = 25;
export const DOMAIN_MAX_LENGTH = 253;
/** Labels must be under this many characters (i.e. at most 63). */
export const DOMAIN_LABEL_LIMIT = 64;

// §9 analytics
export const ANALYTICS_FLUSH_INTERVAL_MIN_MS = 250;
export const ANALYTICS_FLUSH_INTERVAL_MAX_MS = 5_000;
export const ANALYTICS_FLUSH_INTERVAL_DEFAULT_MS = 3_000;
export const ANALYTICS_SESSION_IDLE_MIN_S = 60;
export const ANALYTICS_SESSION_IDLE_MAX_S = 36_000;
export const ANALYTICS_SESSION_IDLE_DEFAULT_S = 1_800;
export const ANALYTICS_EVENTS_PER_SECOND = 10;
export const ANALYTICS_EVENTS_BURST = 100;
export const ANALYTICS_QUOTA_BLOCK_MS = 60_000;
export const ANALYTICS_MAX_RETRIES = 10;
export const ANALYTICS_RETRY_BACKOFF_CAP_MS = 30 * 60 * 1000;
export const ANALYTICS_SESSION_MAX_MS = 24 * 60 * 60 * 1000;
export const ANALYTICS_STRING_CAP = 65_535;
export const SURVEYS_TIMEOUT_MS = 10_000;

// §9 images and spacing
export const IMAGE_DEVICE_SIZES = [640, 750, 828, 1080, 1200, 1920, 2048, 3840] as const;
export const IMAGE_SIZES = [16, 32, 48, 64, 96, 128, 256, 384] as const;
export const UI_SPACING_UNIT_PX = 8;

// §2 storage
export const PREFERRED_PLAN_STORAGE_KEY = 'preferred-plan';
export const PREFERRED_PLAN_DEFAULT = null;
/** §2: the query parameter whose value is stored under PREFERRED_PLAN_STORAGE_KEY. */
export const PREFERRED_PLAN_QUERY_PARAM = 'preferred_plan';

// §4 session
/** A 403 on the session fetch sends the user to login with aal=aal2. */
export const SESSION_FORBIDDEN_AAL = 'aal2' as const;
