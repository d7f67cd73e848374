import toast from 'react-hot-toast';
import { oauth2StrategiesForm, type OAuth2Config } from '../../../../shared/schemas/oauth2';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { Select } from '../../components/TextField';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

function StrategiesForm({ projectId, config }: { projectId: string; config: OAuth2Config }) {
  const utils = trpc.useUtils();
  const save = trpc.oauth2Config.setStrategies.useMutation({ onSuccess: (saved) => utils.oauth2Config.get.setData({ projectId }, saved) });
  return (
    <SettingsForm
      schema={oauth2StrategiesForm}
      values={config.strategies}
      testId="oauth2-strategies-form"
      submitLabel="Save strategies"
      errorContext="Could not save the strategies"
      onSave={async (_changes, all) => (await save.mutateAsync({ projectId, access_token: all.access_token, scope: all.scope })).strategies}
      onSaved={() => toast.success('Strategies saved')}
      reload={async () => (await utils.oauth2Config.get.fetch({ projectId }, { staleTime: 0 })).strategies}
    >
      {(form) => (
        <>
          <Select
            label="Access tokens"
            hint="Opaque tokens are random strings checked by introspection; JWTs carry their claims and are verified with the project's public keys. A client's own strategy wins over this one."
            options={[
              { value: 'opaque', label: 'Opaque' },
              { value: 'jwt', label: 'JSON Web Token (JWT)' },
            ]}
            error={form.formState.errors.access_token?.message}
            data-testid="oauth2-strategy-access-token"
            {...form.register('access_token')}
          />
          <Select
            label="Scope matching"
            hint="Wildcard lets a client scope such as photos.* allow photos.read and photos.read.thumbnails; exact allows only the scopes a client lists, as written."
            options={[
              { value: 'wildcard', label: 'Wildcard' },
              { value: 'exact', label: 'Exact' },
            ]}
            error={form.formState.errors.scope?.message}
            data-testid="oauth2-strategy-scope"
            {...form.register('scope')}
          />
        </>
      )}
    </SettingsForm>
  );
}

/** /projects/{project}/oauth/strategies: whether the project's access tokens are opaque or JWTs, and how scopes are matched. */
export default function OAuth2StrategiesPage() {
  const project = useProject();
  const config = trpc.oauth2Config.get.useQuery({ projectId: project.id });
  return (
    <div className="page page-narrow" data-testid="oauth2-strategies-page">
      <PageHeader title="Token strategies" description="The format of the access tokens this project's OAuth2 server issues, and how it matches the scopes clients request." />
      <Card>
        <QueryView query={config} skeleton="card" errorTitle="The OAuth2 settings could not be loaded">
          {(c) => <StrategiesForm projectId={project.id} config={c} />}
        </QueryView>
      </Card>
    </div>
  );
}
