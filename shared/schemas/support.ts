import { z } from 'zod';

/** The console's build: the version of its package, as the server that answers was built. */
export const consoleVersionOutput = z.object({ version: z.string().min(1) });
export type ConsoleVersion = z.infer<typeof consoleVersionOutput>;
