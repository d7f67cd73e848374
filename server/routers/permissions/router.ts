import { router } from '../../trpc/init';
import { project, workspace } from './check';

export const permissionsRouter = router({ project, workspace });
