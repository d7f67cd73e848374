import toast from 'react-hot-toast';
import { oauth2ConfigureForm, type OAuth2Config } from '../../../../shared/schemas/oauth2';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { TrustedIssuersSection } from './TrustedIssuersSection';

function ConfigureForm({ projectId, config }: { projectId: string; config: OAuth2Config }) {
  const utils = trpc.useUtils();
  const save = trpc.oauth2Config.setConfigure.useMutation({ onSuccess: (saved) => utils.oauth2Config.get.setData({ projectId }, saved) });
  return (
    <SettingsForm
      schema={oauth2ConfigureForm}
      values={config.configure}
      testId="oauth2-configure-form"
      submitLabel="Save configuration"
      errorContext="Could not save the OAuth2 configuration"
      onSave={async (changes) => (await save.mutateAsync({ projectId, ...changes })).configure}
      onSaved={() => toast.success('OAuth2 configuration saved')}
      reload={async () => (await utils.oauth2Config.get.fetch({ projectId }, { staleTime: 0 })).configure}
    >
      {(form) => (
        <>
          <label className="checkbox">
            <input type="checkbox" data-testid="oauth2-pkce-enforced" {...form.register('pkce_enforced')} /> Require PKCE from every client: an
            authorization request without a code challenge is refused.
          </label>
          <label className="checkbox">
            <input type="checkbox" data-testid="oauth2-pkce-public" {...form.register('pkce_enforced_for_public_clients')} /> Require PKCE from
            public clients (those without a secret, such as mobile and single-page apps).
          </label>
          <label className="checkbox">
            <input type="checkbox" data-testid="oauth2-dynamic-registration" {...form.register('dynamic_client_registration')} /> Allow dynamic
            client registration: anyone may register a client at the project&apos;s /oauth2/register endpoint and manage it with the
            registration access token it receives.
          </label>
        </>
      )}
    </SettingsForm>
  );
}

/** /projects/{project}/oauth/configure: the general behaviour of the project's OAuth2 server. */
export default function OAuth2ConfigurePage() {
  const project = useProject();
  const config = trpc.oauth2Config.get.useQuery({ projectId: project.id });
  return (
    <div className="page page-narrow" data-testid="oauth2-configure-page">
      <PageHeader title="Configuration" description="How strictly the OAuth2 server checks authorization requests, and whether clients may register themselves." />
      <Card title="Authorization requests and registration">
        <QueryView query={config} skeleton="card" errorTitle="The OAuth2 settings could not be loaded">
          {(c) => <ConfigureForm projectId={project.id} config={c} />}
        </QueryView>
      </Card>
      <TrustedIssuersSection projectId={project.id} />
    </div>
  );
}
