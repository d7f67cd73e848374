import { router } from '../../trpc/init';
import { deleteAccount } from './account';
import { session } from './session';
import { revokeOtherSessions, revokeSession, sessions } from './sessions';

export const authRouter = router({ session, sessions, revokeSession, revokeOtherSessions, deleteAccount });
