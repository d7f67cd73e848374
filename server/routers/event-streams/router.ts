import {
  eventStreamCreateInput,
  eventStreamCreateOutput,
  eventStreamDeliveriesInput,
  eventStreamDeliveriesOutput,
  eventStreamRefInput,
  eventStreamReplayInput,
  eventStreamReplayOutput,
  eventStreamSendTestOutput,
  eventStreamSetInput,
  eventStreamSetOutput,
  eventStreamsListOutput,
  okOutput,
} from '../../../shared/schemas/event-streams';
import { projectIdInput } from '../../../shared/schemas/project';
import { projectProcedure, router } from '../../trpc/init';

const destination = (input: { status?: 'active' | 'paused'; https_endpoint?: string; topic_arn?: string; role_arn?: string }) => ({
  ...(input.status ? { status: input.status } : {}),
  ...(input.https_endpoint !== undefined ? { https_endpoint: input.https_endpoint } : {}),
  ...(input.topic_arn !== undefined ? { topic_arn: input.topic_arn } : {}),
  ...(input.role_arn !== undefined ? { role_arn: input.role_arn } : {}),
});

/**
 * Event streams of a project (spec §7): members list them and read each one's delivery log; writers create,
 * change, pause, delete, replay a delivery and send a test event. The secret is in the create answer only.
 */
export const eventStreamsRouter = router({
  list: projectProcedure('backoffice.project.read')
    .input(projectIdInput)
    .output(eventStreamsListOutput)
    .query(async ({ ctx }) => (await ctx.deps.backoffice.eventStreams.list(ctx.call, ctx.projectId)).event_streams),

  create: projectProcedure('backoffice.project.write')
    .input(eventStreamCreateInput)
    .output(eventStreamCreateOutput)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.eventStreams.create(ctx.call, ctx.projectId, { type: input.type, ...destination(input) })),

  set: projectProcedure('backoffice.project.write')
    .input(eventStreamSetInput)
    .output(eventStreamSetOutput)
    .mutation(({ ctx, input }) =>
      ctx.deps.backoffice.eventStreams.set(ctx.call, ctx.projectId, input.streamId, { ...(input.type ? { type: input.type } : {}), ...destination(input) }),
    ),

  delete: projectProcedure('backoffice.project.write')
    .input(eventStreamRefInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.deps.backoffice.eventStreams.remove(ctx.call, ctx.projectId, input.streamId);
      return { ok: true as const };
    }),

  deliveries: projectProcedure('backoffice.project.read')
    .input(eventStreamDeliveriesInput)
    .output(eventStreamDeliveriesOutput)
    .query(async ({ ctx, input }) => {
      const log = await ctx.deps.backoffice.eventStreams.attempts(ctx.call, ctx.projectId, input.streamId, input.pageToken);
      return { attempts: log.attempts, ...(log.next_page_token ? { nextPageToken: log.next_page_token } : {}) };
    }),

  replay: projectProcedure('backoffice.project.write')
    .input(eventStreamReplayInput)
    .output(eventStreamReplayOutput)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.eventStreams.replay(ctx.call, ctx.projectId, input.streamId, input.deliveryId)),

  sendTest: projectProcedure('backoffice.project.write')
    .input(eventStreamRefInput)
    .output(eventStreamSendTestOutput)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.eventStreams.sendTest(ctx.call, ctx.projectId, input.streamId)),
});
