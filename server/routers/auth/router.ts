import { router } from '../../trpc/init';
import { session } from './session';

export const authRouter = router({ session });
