import { router } from '../trpc/init';
import { authRouter } from './auth';
import { permissionsRouter } from './permissions';
import { projectsRouter } from './projects';
import { workspacesRouter } from './workspaces';

export const appRouter = router({
  auth: authRouter,
  workspaces: workspacesRouter,
  projects: projectsRouter,
  permissions: permissionsRouter,
});

export type AppRouter = typeof appRouter;
