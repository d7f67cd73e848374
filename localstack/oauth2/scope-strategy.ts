/**
 * How a requested scope is matched against the scopes a client may ask for: Hydra's `strategies.scope`.
 *
 * - `exact`: the scope is one of the client's, character for character.
 * - `wildcard` (Hydra's default): scopes are dot-separated parts, and a client scope's `*` part stands for any
 *   one non-empty part; a `*` that ends the client's scope also stands for every further part. So `photos.*`
 *   allows `photos.read` and `photos.read.thumbnails` but neither `photos` nor `photos.` ; `a.*.c` allows
 *   `a.b.c`; a client scope without `*` allows only itself.
 */
export type ScopeStrategy = 'exact' | 'wildcard';

/** Whether one client scope (`pattern`) allows the requested `scope` by the wildcard rules above. */
function wildcardAllows(pattern: string, scope: string): boolean {
  const want = pattern.split('.');
  const got = scope.split('.');
  if (want.length > got.length) return false;
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    const isLast = i === want.length - 1;
    // A pattern shorter than the scope must end in `*` (which then takes the rest).
    if (isLast && want.length !== got.length && part !== '*') return false;
    if (part === '*' ? got[i]!.length === 0 : part !== got[i]) return false;
  }
  return true;
}

/** Whether a client holding `clientScopes` may request `scope` under `strategy`. */
export function scopeAllowed(strategy: ScopeStrategy, clientScopes: readonly string[], scope: string): boolean {
  if (strategy === 'exact') return clientScopes.includes(scope);
  return clientScopes.some((pattern) => wildcardAllows(pattern, scope));
}

/** The characters RFC 6749 §3.3 allows in a scope token. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The most scopes a server learns from requests before it is rebuilt (see `createScopeBook`). */
export const LEARNED_SCOPES_LIMIT = 5000;

/**
 * The scopes a project's oidc-provider knows (its own set, see `adopt`). oidc-provider checks a request's scopes against a client's list
 * only for scopes it knows, and ignores the others; Hydra refuses every scope the client may not request. So
 * each requested scope is learned before the request reaches oidc-provider (`learn`), and a client's list is
 * widened with the known scopes the strategy lets it request (`grantable`): oidc-provider then grants exactly
 * what Hydra grants and refuses the rest with `invalid_scope`. What is learned is bounded: a server that has
 * learned `LEARNED_SCOPES_LIMIT` scopes reports itself `full` and is built anew.
 */
export function createScopeBook(initial: readonly string[], strategy: ScopeStrategy, limit = LEARNED_SCOPES_LIMIT) {
  let known = new Set(initial.filter((s) => SCOPE_TOKEN.test(s)));
  let learned = 0;
  return {
    /** The scopes the server knows. */
    get known() {
      return known;
    },
    strategy,
    /** From now on the book reads and writes `live`, oidc-provider's own set of the scopes it knows. */
    adopt(live: Set<string>) {
      for (const scope of known) live.add(scope);
      known = live;
    },
    /** Learns the scopes of a request's `scope` parameter. */
    learn(scope: string) {
      for (const token of scope.split(' ')) {
        if (learned >= limit) return;
        if (!token || known.has(token) || !SCOPE_TOKEN.test(token)) continue;
        known.add(token);
        learned++;
      }
    },
    get full() {
      return learned >= limit;
    },
    /** A client's `scope` widened with every known scope the strategy lets it request. */
    grantable(clientScope: string): string {
      if (strategy === 'exact') return clientScope;
      const own = clientScope.split(' ').filter(Boolean);
      const extra = [...known].filter((s) => !own.includes(s) && scopeAllowed(strategy, own, s));
      return [...own, ...extra].join(' ');
    },
  };
}

export type ScopeBook = ReturnType<typeof createScopeBook>;
