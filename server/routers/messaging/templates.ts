import { TRPCError } from '@trpc/server';
import {
  applyTemplate,
  unknownTemplateReason,
  customTemplateOf,
  renderEmail,
  sampleData,
  templateVariables,
  templateVariants,
  TEMPLATES,
  type TemplateName,
  type TemplateVariant,
} from '../../../shared/domain/email-templates';
import { setTemplateInput, templateOutput, templateRefInput, templatesOutput, projectRefInput, type TemplateOutput } from '../../../shared/schemas/messaging';
import type { Context } from '../../trpc/context';
import { projectProcedure } from '../../trpc/init';
import { asBadRequest, readCourier, writeCourier } from './project-config';

const read = projectProcedure('backoffice.project.read');
const write = projectProcedure('backoffice.project.write');

/** login_code and registration_code have no invalid variant: say so before anything is read or written. */
function assertTemplate(template: TemplateName, variant: TemplateVariant): void {
  const reason = unknownTemplateReason(template, variant);
  if (reason) throw new TRPCError({ code: 'BAD_REQUEST', message: reason });
}

/** One template as the console edits it: the project's own version, else the project default (spec §7 `.well-known`). */
async function templateView(ctx: Context, courier: Record<string, unknown>, template: TemplateName, variant: TemplateVariant): Promise<TemplateOutput> {
  const fallback = await ctx.deps.backoffice.getEmailTemplateDefault(ctx.call, template, variant);
  const custom = customTemplateOf(courier.templates, template, variant);
  const shown = custom ?? fallback;
  return {
    template,
    variant,
    label: TEMPLATES[template].label,
    custom: custom !== null,
    subject: shown.subject,
    html: shown.body.html,
    plaintext: shown.body.plaintext,
    variables: templateVariables(template, variant),
    default: fallback,
  };
}

export const templates = read
  .input(projectRefInput)
  .output(templatesOutput)
  .query(async ({ ctx }) => {
    const { courier } = await readCourier(ctx, ctx.projectId);
    return templateVariants().map((t) => ({ ...t, custom: customTemplateOf(courier.templates, t.template, t.variant) !== null }));
  });

export const getTemplate = read
  .input(templateRefInput)
  .output(templateOutput)
  .query(async ({ ctx, input }) => {
    assertTemplate(input.template, input.variant);
    return templateView(ctx, (await readCourier(ctx, ctx.projectId)).courier, input.template, input.variant);
  });

/** Saves the project's own version; one that does not render with the template's variables is refused, saying why. */
export const setTemplate = write
  .input(setTemplateInput)
  .output(templateOutput)
  .mutation(async ({ ctx, input }) => {
    assertTemplate(input.template, input.variant);
    const email = { subject: input.subject, body: { html: input.html, plaintext: input.plaintext } };
    const variables = templateVariables(input.template, input.variant).map((v) => v.name);
    asBadRequest(() => renderEmail(email, sampleData('preview@example.com'), variables));
    const current = await readCourier(ctx, ctx.projectId);
    const next = asBadRequest(() => applyTemplate(current.courier, input.template, input.variant, email));
    await writeCourier(ctx, ctx.projectId, current, next);
    return templateView(ctx, next, input.template, input.variant);
  });

/** Back to the project default. */
export const resetTemplate = write
  .input(templateRefInput)
  .output(templateOutput)
  .mutation(async ({ ctx, input }) => {
    assertTemplate(input.template, input.variant);
    const current = await readCourier(ctx, ctx.projectId);
    const next = applyTemplate(current.courier, input.template, input.variant, null);
    if (customTemplateOf(current.courier.templates, input.template, input.variant) !== null) await writeCourier(ctx, ctx.projectId, current, next);
    return templateView(ctx, next, input.template, input.variant);
  });
