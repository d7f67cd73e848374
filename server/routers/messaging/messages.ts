import { messageRefInput, messageSchema, messagesInput, messagesOutput, testSendInput } from '../../../shared/schemas/messaging';
import { dataPlaneProcedure, projectProcedure } from '../../trpc/init';
import { nextTokenOf } from '../identities/paging';

const PAGE_SIZE = 25;

/** The project's courier log (CourierApi on its data plane), newest first, paged by the Link header. */
export const messages = dataPlaneProcedure('backoffice.project.read')
  .input(messagesInput)
  .output(messagesOutput)
  .query(async ({ ctx, input }) => {
    const { courier } = ctx.apis;
    const res = await courier.listCourierMessages({
      pageSize: PAGE_SIZE,
      ...(input.pageToken ? { pageToken: input.pageToken } : {}),
      ...(input.status ? { status: input.status } : {}),
      ...(input.recipient ? { recipient: input.recipient } : {}),
    });
    return { messages: res.data.map((m) => messageSchema.parse(m)), nextPageToken: nextTokenOf(res.headers as Record<string, unknown>) };
  });

/** One message with its dispatch attempts. */
export const message = dataPlaneProcedure('backoffice.project.read')
  .input(messageRefInput)
  .output(messageSchema)
  .query(async ({ ctx, input }) => {
    const { courier } = ctx.apis;
    return messageSchema.parse((await courier.getCourierMessage({ id: input.id })).data);
  });

/** A message of a test-event kind, rendered with the project's template and queued like any other. */
export const testSend = projectProcedure('backoffice.project.write')
  .input(testSendInput)
  .output(messageSchema)
  .mutation(async ({ ctx, input }) =>
    ctx.deps.backoffice.sendTestMessage(ctx.call, ctx.projectId, { kind: input.kind, recipient: input.recipient, channel: input.channel }),
  );
