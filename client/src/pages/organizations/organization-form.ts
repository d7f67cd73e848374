import { z } from 'zod';
import { organizationDomainsSchema } from '../../../../shared/schemas/organizations';

/** Domains as a form types them: separated by commas, spaces or new lines. */
export const splitDomains = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

/** The domains field: the text, checked as the list it becomes (spec §5 per domain, none twice). */
export const domainsTextSchema = z.string().superRefine((text, ctx) => {
  const parsed = organizationDomainsSchema.safeParse(splitDomains(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const index = issue.path[0];
    const which = typeof index === 'number' ? `${splitDomains(text)[index]}: ` : '';
    ctx.addIssue({ code: 'custom', message: `${which}${issue.message}` });
  }
});

export const organizationFormSchema = z.object({
  label: z.string().trim().min(1, { error: 'Give the organization a name' }).max(255, { error: 'A name has at most 255 characters' }),
  domains: domainsTextSchema,
});
export type OrganizationForm = z.infer<typeof organizationFormSchema>;
