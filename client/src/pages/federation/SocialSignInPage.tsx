import toast from 'react-hot-toast';
import { Link, useLocation } from 'wouter';
import { socialProviderKind } from '../../../../shared/domain/social-providers';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { Switch } from '../../components/Switch';
import { Table } from '../../components/Table';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { ProviderLogo } from './ProviderLogo';

/** The method's switch: social sign-in on or off for every provider of the project. */
export function SocialSignInSwitch({ projectId, enabled }: { projectId: string; enabled: boolean }) {
  const setEnabled = trpc.socialProviders.setEnabled.useMutation({
    onSuccess: (list) => toast.success(list.enabled ? 'Social sign-in turned on' : 'Social sign-in turned off'),
    onError: (err) => toast.error(errorText(err) ?? 'Social sign-in could not be switched.'),
  });
  return (
    <Switch
      label="Social sign-in"
      description="When off, no provider of this project is offered on the sign-in and registration pages."
      checked={enabled}
      disabled={setEnabled.isPending}
      onCheckedChange={(checked) => setEnabled.mutate({ projectId, enabled: checked })}
      testId="social-signin-enabled"
    />
  );
}

/**
 * /projects/{project}/social-signin: the providers the project signs users in with, the method's switch,
 * and the catalogue of provider kinds; picking a kind opens the provider's page to configure it.
 */
export default function SocialSignInPage() {
  const project = useProject();
  const projectId = project.id;
  const [, navigate] = useLocation();
  const list = trpc.socialProviders.list.useQuery({ projectId });
  const catalogue = trpc.socialProviders.catalogue.useQuery();

  /** A new provider's id: the kind's name, numbered when the project has one by that id already. */
  const add = (kind: string) => {
    const taken = new Set(list.data?.providers.map((p) => p.id) ?? []);
    let id = kind;
    for (let n = 2; taken.has(id); n++) id = `${kind}-${n}`;
    navigate(`${ROUTES.socialProvider.build({ project: projectId, provider: id })}?kind=${encodeURIComponent(kind)}`);
  };

  return (
    <div className="page" data-testid="social-signin-page">
      <PageHeader title="Social sign-in" description="Let users sign up and sign in with an account they already have at Google, GitHub, Microsoft or any OpenID Connect provider." />
      <QueryView query={list} skeleton="table" errorTitle="The social sign-in providers could not be loaded">
        {(loaded) => (
          <>
            <Card>
              <SocialSignInSwitch projectId={projectId} enabled={loaded.enabled} />
            </Card>
            <Card title="Configured providers" testId="social-providers-card">
              {loaded.providers.length === 0 ? (
                <p className="hint" data-testid="social-providers-empty">
                  No provider is configured yet. Pick one below: you get the redirect URI to register at the provider, then paste the client ID and secret it gives you.
                </p>
              ) : (
                <Table
                  caption="Configured social sign-in providers"
                  testId="social-providers-table"
                  rowKey={(p) => p.id}
                  rows={loaded.providers}
                  columns={[
                    {
                      key: 'name',
                      header: 'Provider',
                      className: 'col-name',
                      render: (p) => (
                        <span className="provider-name">
                          <ProviderLogo kind={p.provider} label={socialProviderKind(p.provider)?.label ?? p.provider} size={24} />
                          <Link href={ROUTES.socialProvider.build({ project: projectId, provider: p.id })} data-testid={`social-provider-link-${p.id}`}>
                            {p.label || socialProviderKind(p.provider)?.label || p.id}
                          </Link>
                        </span>
                      ),
                    },
                    { key: 'id', header: 'ID', className: 'col-code', render: (p) => <code>{p.id}</code> },
                    { key: 'kind', header: 'Kind', render: (p) => socialProviderKind(p.provider)?.label ?? p.provider },
                    { key: 'client', header: 'Client ID', className: 'col-code', render: (p) => <code>{p.client_id}</code> },
                  ]}
                />
              )}
            </Card>
          </>
        )}
      </QueryView>
      <Card title="Add a provider" testId="social-catalogue">
        <QueryView query={catalogue} errorTitle="The provider catalogue could not be loaded">
          {(kinds) => (
            <ul className="provider-catalogue">
              {kinds.map((k) => (
                <li key={k.kind}>
                  <button type="button" className="provider-tile" onClick={() => add(k.kind)} disabled={!list.data} data-testid={`social-add-${k.kind}`}>
                    <ProviderLogo kind={k.kind} label={k.label} />
                    <span>{k.label}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </Card>
    </div>
  );
}
