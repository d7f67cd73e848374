import { router } from '../../trpc/init';
import { getActive, setActive } from './active';
import { configuration, createPlain, patch, replace, replaceNormalized } from './configuration';
import { create } from './create';
import { remove } from './delete';
import { progress } from './progress';
import { endpoint, get, list, members } from './read';
import { setEnvironment, update } from './update';

export const projectsRouter = router({ list, get, create, update, setEnvironment, delete: remove, getActive, setActive, members, endpoint, progress, createPlain, configuration, replace, patch, replaceNormalized });
