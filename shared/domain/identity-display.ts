/** What these rules read of an identity (Ory's Identity, or the console's view of it). */
interface IdentityLike {
  id: string;
  traits?: unknown;
  credentials?: Record<string, { identifiers?: string[] | undefined } | undefined> | undefined;
  verifiable_addresses?: { value: string }[] | undefined;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** Every identifier an identity signs in with, across its credentials, without repeats. */
export function identifiersOf(identity: Pick<IdentityLike, 'credentials'>): string[] {
  const all = Object.values(identity.credentials ?? {}).flatMap((c) => c?.identifiers ?? []);
  return [...new Set(all)];
}

/** What names an identity in a list: its email (or username or phone) trait, else its first identifier, else its id. */
export function identityLabel(identity: IdentityLike): string {
  const traits = (identity.traits ?? {}) as Record<string, unknown>;
  return (
    text(traits.email) ??
    text(traits.username) ??
    text(traits.phone) ??
    identity.verifiable_addresses?.[0]?.value ??
    identifiersOf(identity)[0] ??
    identity.id
  );
}

/** A person's name from the usual trait shapes: `name` as text, or `name.first` and `name.last`. */
export function identityName(identity: Pick<IdentityLike, 'traits'>): string | null {
  const name = ((identity.traits ?? {}) as Record<string, unknown>).name;
  if (typeof name === 'string') return text(name);
  if (name && typeof name === 'object') {
    const parts = [(name as Record<string, unknown>).first, (name as Record<string, unknown>).last].map(text).filter(Boolean);
    return parts.length ? parts.join(' ') : null;
  }
  return null;
}

/** The authentication methods of a session, as words: 'password, code'. */
export function sessionMethods(session: { authentication_methods?: { method?: string | undefined }[] | undefined }): string {
  const methods = (session.authentication_methods ?? []).map((m) => m.method).filter((m): m is string => Boolean(m));
  return [...new Set(methods)].join(', ') || 'Unknown';
}

/** A device's short description: browser and system from its user agent, and its IP address. */
export function deviceLabel(device: { user_agent?: string | undefined; ip_address?: string | undefined }): string {
  const ua = device.user_agent ?? '';
  const browser = /Edg\//.test(ua) ? 'Edge' : /Chrome\//.test(ua) ? 'Chrome' : /Firefox\//.test(ua) ? 'Firefox' : /Safari\//.test(ua) ? 'Safari' : ua ? ua.split(/[ /]/)[0]! : 'Unknown client';
  const system = /Windows/.test(ua) ? 'Windows' : /Mac OS X/.test(ua) ? 'macOS' : /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Linux/.test(ua) ? 'Linux' : '';
  return [system ? `${browser} on ${system}` : browser, device.ip_address].filter(Boolean).join(' · ');
}
