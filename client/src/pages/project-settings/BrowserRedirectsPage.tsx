import { z } from 'zod';
import { browserRedirectsPageForm, returnUrlLines, type ProjectConfig } from '../../../../shared/schemas/project-config';
import { trpc } from '../../trpc';
import { ConfigSectionPage, type ConfigField } from '../authentication/ConfigSectionForm';

type Values = z.infer<typeof browserRedirectsPageForm>;

const after = (key: 'after_login' | 'after_registration' | 'after_settings' | 'after_recovery' | 'after_verification' | 'after_logout', flow: string): ConfigField<Values> => ({
  key,
  kind: 'text',
  label: `After ${flow}`,
  placeholder: 'The default return URL',
  hint: `Where a browser goes after ${flow} when the flow names no return_to.`,
});

const FIELDS: readonly ConfigField<Values>[] = [
  { key: 'default_browser_return_url', kind: 'text', label: 'Default return URL', placeholder: 'The project’s UI', hint: 'Where a browser goes after any flow that names no other place.' },
  {
    key: 'allowed_return_urls',
    kind: 'lines',
    label: 'Allowed return URLs',
    placeholder: 'https://app.example.com/\nhttps://*.example.com/',
    hint: 'One a line. A flow may send a browser back (return_to) only to these, or to the project’s own UI. Each starts with http:// or https://; *.example.com allows every subdomain.',
  },
  after('after_login', 'sign-in'),
  after('after_registration', 'sign-up'),
  after('after_settings', 'a settings change'),
  after('after_recovery', 'recovery'),
  after('after_verification', 'verification'),
  after('after_logout', 'sign-out'),
];

const toPage = (c: ProjectConfig): Values => ({ ...c.browserRedirects, allowed_return_urls: c.browserRedirects.allowed_return_urls.join('\n') });

/** /projects/{project}/browser-redirects: where flows send browsers, and the return URLs they may use. */
export default function BrowserRedirectsPage() {
  const save = trpc.projectConfig.setBrowserRedirects.useMutation();
  return (
    <ConfigSectionPage<Values>
      testId="browser-redirects"
      title="Browser redirects"
      description="Where sign-in, sign-up and the other flows send a browser when they end, and which return URLs they accept."
      schema={browserRedirectsPageForm}
      fields={FIELDS}
      read={toPage}
      save={(projectId, { allowed_return_urls, ...changes }, revisionId) =>
        save.mutateAsync({ projectId, revisionId, ...changes, ...(allowed_return_urls === undefined ? {} : { allowed_return_urls: returnUrlLines(allowed_return_urls) }) })
      }
      submitLabel="Save redirects"
      savedMessage="Browser redirects saved"
    />
  );
}
