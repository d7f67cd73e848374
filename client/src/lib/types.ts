import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/routers/_app';

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type ProjectDetail = RouterOutputs['projects']['get'];
export type ProjectSummary = RouterOutputs['projects']['list'][number];
export type WorkspaceDetail = RouterOutputs['workspaces']['get'];
