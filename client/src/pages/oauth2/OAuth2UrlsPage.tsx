import toast from 'react-hot-toast';
import { oauth2UrlsForm, type OAuth2Config } from '../../../../shared/schemas/oauth2';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { TextField } from '../../components/TextField';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

const FIELDS = [
  { key: 'login', label: 'Login', hint: 'Your page that signs the user in; it receives ?login_challenge=… and accepts it through the admin API.' },
  { key: 'consent', label: 'Consent', hint: 'Your page that asks the user to allow the app; it receives ?consent_challenge=….' },
  { key: 'logout', label: 'Logout', hint: 'Your page that confirms signing out; it receives ?logout_challenge=….' },
  { key: 'error', label: 'Error', hint: 'Where users see an OAuth2 error the app cannot be told about.' },
  { key: 'post_logout_redirect', label: 'After logout', hint: 'Where users land after signing out when the app names no place.' },
  { key: 'issuer', label: 'Issuer', hint: "The iss of the project's tokens and discovery document; leave empty for the project's own address." },
] as const;

function UrlsForm({ projectId, config }: { projectId: string; config: OAuth2Config }) {
  const utils = trpc.useUtils();
  const save = trpc.oauth2Config.setUrls.useMutation({ onSuccess: (saved) => utils.oauth2Config.get.setData({ projectId }, saved) });
  return (
    <SettingsForm
      schema={oauth2UrlsForm}
      values={config.urls}
      testId="oauth2-urls-form"
      submitLabel="Save URLs"
      errorContext="Could not save the OAuth2 URLs"
      onSave={async (changes) => (await save.mutateAsync({ projectId, ...changes })).urls}
      onSaved={() => toast.success('OAuth2 URLs saved')}
      reload={async () => (await utils.oauth2Config.get.fetch({ projectId }, { staleTime: 0 })).urls}
    >
      {(form) => (
        <>
          {FIELDS.map((f) => (
            <TextField
              key={f.key}
              label={f.label}
              type="url"
              hint={`${f.hint} Leave empty for the default.`}
              autoComplete="off"
              placeholder="Default"
              error={form.formState.errors[f.key]?.message}
              data-testid={`oauth2-url-${f.key}`}
              {...form.register(f.key)}
            />
          ))}
        </>
      )}
    </SettingsForm>
  );
}

/** /projects/{project}/oauth/urls: where the project's OAuth2 server sends users to sign in, consent and sign out. */
export default function OAuth2UrlsPage() {
  const project = useProject();
  const config = trpc.oauth2Config.get.useQuery({ projectId: project.id });
  return (
    <div className="page page-narrow" data-testid="oauth2-urls-page">
      <PageHeader title="URLs" description="The pages of your application that the OAuth2 server sends users to." />
      <Card>
        <QueryView query={config} skeleton="card" errorTitle="The OAuth2 settings could not be loaded">
          {(c) => <UrlsForm projectId={project.id} config={c} />}
        </QueryView>
      </Card>
    </div>
  );
}
