import type { Identity, Session, SessionAuthenticationMethod, SessionDevice } from '@ory/client';
import type { SessionRow } from '../identity/schema';
import { isWorking } from './store';

export interface SessionExpansion {
  /** The session's identity in wire form, when it is to be shown. */
  identity?: Identity;
  devices: boolean;
}

/** A session in Ory's wire format; identity and devices only when expanded, as Kratos' admin API does. */
/** `now`: the stack's clock time, which decides whether the session is still active. */
export function sessionView(row: SessionRow, expand: SessionExpansion, now: Date): Session {
  return {
    id: row.id,
    active: isWorking(row, now),
    expires_at: row.expires_at.toISOString(),
    authenticated_at: row.authenticated_at.toISOString(),
    authenticator_assurance_level: row.aal as Session['authenticator_assurance_level'],
    authentication_methods: row.authentication_methods as SessionAuthenticationMethod[],
    issued_at: row.issued_at.toISOString(),
    ...(expand.identity ? { identity: expand.identity } : {}),
    ...(expand.devices ? { devices: row.devices as SessionDevice[] } : {}),
  } satisfies Session;
}
