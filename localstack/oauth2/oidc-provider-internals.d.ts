declare module 'oidc-provider/lib/helpers/weak_cache.js' {
  /** oidc-provider's state of a provider instance, of which only the known scopes are read here. */
  const internals: (provider: object) => { configuration?: { scopes?: unknown } } | undefined;
  export default internals;
}
