import { router } from '../../trpc/init';
import { project, workspace } from './check';
import { check, expand } from './project-checks';

/** The console's backoffice checks (`project`, `workspace`) and checks of a project's own rules (`check`, `expand`). */
export const permissionsRouter = router({ project, workspace, check, expand });
