import type { LocalStackContext } from '../context';

export type { Queryable } from '../db/types';
export type { SessionInfo as CallerSession } from '../context';

/** The part of the local stack's context the control plane uses. */
export type ControlPlaneContext = Pick<LocalStackContext, 'db' | 'log' | 'resolveSession'>;
