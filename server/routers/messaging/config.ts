import { applyEmailConfig, applySmsConfig, readEmailConfig, readSmsConfig } from '../../../shared/domain/email-config';
import { emailConfigOutput, projectRefInput, setEmailConfigInput, setSmsConfigInput, smsConfigOutput } from '../../../shared/schemas/messaging';
import { projectProcedure } from '../../trpc/init';
import { asBadRequest, readCourier, writeCourier } from './project-config';

/** How the project's email leaves: SMTP or HTTP, and the sender. The SMTP password is never answered. */
export const emailConfig = projectProcedure('backoffice.project.read')
  .input(projectRefInput)
  .output(emailConfigOutput)
  .query(async ({ ctx }) => readEmailConfig((await readCourier(ctx, ctx.projectId)).courier));

/** Saves the changed fields; an omitted or empty password keeps the stored one. */
export const setEmailConfig = projectProcedure('backoffice.project.write')
  .input(setEmailConfigInput)
  .output(emailConfigOutput)
  .mutation(async ({ ctx, input }) => {
    const { projectId: _projectId, ...changes } = input;
    const current = await readCourier(ctx, ctx.projectId);
    const next = asBadRequest(() => applyEmailConfig(current.courier, changes));
    await writeCourier(ctx, ctx.projectId, current, next);
    return readEmailConfig(next);
  });

export const smsConfig = projectProcedure('backoffice.project.read')
  .input(projectRefInput)
  .output(smsConfigOutput)
  .query(async ({ ctx }) => readSmsConfig((await readCourier(ctx, ctx.projectId)).courier));

/** Saves the changed fields of the SMS channel; an omitted or empty password or key keeps the stored one. */
export const setSmsConfig = projectProcedure('backoffice.project.write')
  .input(setSmsConfigInput)
  .output(smsConfigOutput)
  .mutation(async ({ ctx, input }) => {
    const { projectId: _projectId, ...changes } = input;
    const current = await readCourier(ctx, ctx.projectId);
    const next = asBadRequest(() => applySmsConfig(current.courier, changes));
    await writeCourier(ctx, ctx.projectId, current, next);
    return readSmsConfig(next);
  });
