import pkg from '../../../package.json' with { type: 'json' };
import { consoleVersionOutput } from '../../../shared/schemas/support';
import { authedProcedure, router } from '../../trpc/init';

/** The console's build version (package.json's, bundled into the server), for the support page and its diagnostic report. */
export const version = authedProcedure.output(consoleVersionOutput).query(() => ({ version: pkg.version }));

export const systemRouter = router({ version });
