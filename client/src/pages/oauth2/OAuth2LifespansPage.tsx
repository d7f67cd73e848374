import toast from 'react-hot-toast';
import { oauth2LifespansForm, type OAuth2Config } from '../../../../shared/schemas/oauth2';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { TextField } from '../../components/TextField';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

const FIELDS = [
  { key: 'access_token', label: 'Access tokens', hint: 'How long an access token works before the client needs a new one. Default 1h.' },
  { key: 'refresh_token', label: 'Refresh tokens', hint: 'How long a user stays signed in to an app without signing in again. Default 720h (30 days).' },
  { key: 'id_token', label: 'ID tokens', hint: 'How long an ID token may be trusted as proof of sign-in. Default 1h.' },
  { key: 'auth_code', label: 'Authorization codes', hint: 'How long a client has to exchange a code for tokens. Default 10m.' },
] as const;

function LifespansForm({ projectId, config }: { projectId: string; config: OAuth2Config }) {
  const utils = trpc.useUtils();
  const save = trpc.oauth2Config.setLifespans.useMutation({ onSuccess: (saved) => utils.oauth2Config.get.setData({ projectId }, saved) });
  return (
    <SettingsForm
      schema={oauth2LifespansForm}
      values={config.lifespans}
      testId="oauth2-lifespans-form"
      submitLabel="Save lifespans"
      errorContext="Could not save the token lifespans"
      onSave={async (changes) => (await save.mutateAsync({ projectId, ...changes })).lifespans}
      onSaved={() => toast.success('Token lifespans saved')}
      reload={async () => (await utils.oauth2Config.get.fetch({ projectId }, { staleTime: 0 })).lifespans}
    >
      {(form) => (
        <>
          {FIELDS.map((f) => (
            <TextField
              key={f.key}
              label={f.label}
              hint={`${f.hint} Write a duration such as 5m, 1h or 1h30m; leave empty for the default.`}
              autoComplete="off"
              placeholder="Default"
              error={form.formState.errors[f.key]?.message}
              data-testid={`oauth2-lifespan-${f.key}`}
              {...form.register(f.key)}
            />
          ))}
        </>
      )}
    </SettingsForm>
  );
}

/** /projects/{project}/oauth/lifespans: how long each kind of token of the project's OAuth2 server lives. */
export default function OAuth2LifespansPage() {
  const project = useProject();
  const config = trpc.oauth2Config.get.useQuery({ projectId: project.id });
  return (
    <div className="page page-narrow" data-testid="oauth2-lifespans-page">
      <PageHeader title="Token lifespans" description="How long the tokens of this project's OAuth2 server stay valid. A change holds for the next token issued." />
      <Card>
        <QueryView query={config} skeleton="card" errorTitle="The OAuth2 settings could not be loaded">
          {(c) => <LifespansForm projectId={project.id} config={c} />}
        </QueryView>
      </Card>
    </div>
  );
}
