import {
  metricsActiveUsersInput,
  metricsActiveUsersOutput,
  metricsAttributesInput,
  metricsAttributesOutput,
  metricsEventsInput,
  metricsEventsOutput,
  metricsEventTypesOutput,
  metricsSeriesInput,
  metricsSeriesOutput,
  metricsSessionsInput,
  metricsSessionsOutput,
} from '../../../shared/schemas/metrics';
import { projectIdInput } from '../../../shared/schemas/project';
import { projectProcedure, router } from '../../trpc/init';

/** A project's metrics (spec §7 Metrics): what its data planes did, counted over a time range. */
export const metricsRouter = router({
  series: projectProcedure('backoffice.project.read')
    .input(metricsSeriesInput)
    .output(metricsSeriesOutput)
    .query(({ ctx, input }) => ctx.deps.backoffice.metrics.series(ctx.call, input.projectId, input)),
  attributes: projectProcedure('backoffice.project.read')
    .input(metricsAttributesInput)
    .output(metricsAttributesOutput)
    .query(({ ctx, input }) => ctx.deps.backoffice.metrics.attributes(ctx.call, input.projectId, input)),
  eventTypes: projectProcedure('backoffice.project.read')
    .input(projectIdInput)
    .output(metricsEventTypesOutput)
    .query(async ({ ctx, input }) => {
      const [types, attributes] = await Promise.all([
        ctx.deps.backoffice.metrics.eventTypes(ctx.call, input.projectId),
        ctx.deps.backoffice.metrics.eventAttributes(ctx.call, input.projectId),
      ]);
      return { eventTypes: types.events, attributes: attributes.events };
    }),
  sessions: projectProcedure('backoffice.project.read')
    .input(metricsSessionsInput)
    .output(metricsSessionsOutput)
    .query(({ ctx, input }) => ctx.deps.backoffice.metrics.sessions(ctx.call, input.projectId, input)),
  /** Daily active users counted from the project's events, and the sessions active now. */
  activeUsers: projectProcedure('backoffice.project.read')
    .input(metricsActiveUsersInput)
    .output(metricsActiveUsersOutput)
    .query(async ({ ctx, input }) => {
      const answer = await ctx.deps.backoffice.metrics.activeUsers(ctx.call, input.projectId, input);
      return { daily: answer.data, activeSessions: answer.active_sessions };
    }),
  events: projectProcedure('backoffice.project.read')
    .input(metricsEventsInput)
    .output(metricsEventsOutput)
    .query(async ({ ctx, input }) => {
      const answer = await ctx.deps.backoffice.metrics.events(ctx.call, input.projectId, input);
      return { events: answer.events, ...(answer.page_token ? { nextPageToken: answer.page_token } : {}) };
    }),
});
