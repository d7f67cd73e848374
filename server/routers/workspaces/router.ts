import { router } from '../../trpc/init';
import { leave, remove } from './leave-delete';
import { addProject, listProjects } from './projects';
import { get, list } from './read';
import { create, update } from './write';

export const workspacesRouter = router({ list, get, create, update, listProjects, addProject, leave, delete: remove });
