import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { SAML_PROVIDER_ID } from '../../../../shared/domain/saml-providers';
import { formatDate } from '../../../../shared/domain/format';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { TextField } from '../../components/TextField';
import { UpgradePrompt } from '../../components/UpgradePrompt';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

/**
 * /projects/{project}/saml: the SAML identity providers the project signs users in with, each with what its
 * metadata says (entity ID, when its signing certificate expires); adding one needs a plan with SAML sign-in.
 */
export default function SamlPage() {
  const project = useProject();
  const projectId = project.id;
  const [, navigate] = useLocation();
  const list = trpc.samlProviders.list.useQuery({ projectId });
  const quota = trpc.quota.get.useQuery({ projectId, feature: 'saml_sp' });
  const unavailable = quota.data?.feature_available === false;
  const [newId, setNewId] = useState('');
  const [idError, setIdError] = useState<string | undefined>();

  const add = (e: React.FormEvent) => {
    e.preventDefault();
    const id = newId.trim();
    if (!SAML_PROVIDER_ID.test(id)) return setIdError('Use 1 to 64 lower-case letters, digits, dashes or underscores, starting with a letter or digit');
    if (list.data?.providers.some((p) => p.id === id)) return setIdError(`A provider with the ID "${id}" exists already; pick another ID.`);
    navigate(`${ROUTES.samlProvider.build({ project: projectId, provider: id })}?new=1`);
  };

  return (
    <div className="page" data-testid="saml-page">
      <PageHeader title="SAML" description="Let the users of a company sign in with its own identity provider (Okta, Microsoft Entra ID, Google Workspace, ADFS…) over SAML 2.0." />
      {unavailable && <UpgradePrompt feature="saml_sp" units={1} workspaceId={project.workspace_id} projectId={projectId} />}
      <QueryView
        query={list}
        skeleton="table"
        errorTitle="The SAML providers could not be loaded"
        isEmpty={(loaded) => loaded.providers.length === 0}
        empty={{
          title: 'No SAML provider yet',
          description: "Add one below: you get the service provider's metadata URL to give the identity provider, then upload its metadata here.",
          testId: 'saml-empty',
        }}
      >
        {(loaded) => (
          <Card title="Configured providers" testId="saml-providers-card">
            <Table
              caption="Configured SAML providers"
              testId="saml-providers-table"
              rowKey={(p) => p.id}
              rows={loaded.providers}
              columns={[
                {
                  key: 'name',
                  header: 'Provider',
                  className: 'col-name',
                  render: (p) => (
                    <Link href={ROUTES.samlProvider.build({ project: projectId, provider: p.id })} data-testid={`saml-provider-link-${p.id}`}>
                      {p.label || p.id}
                    </Link>
                  ),
                },
                { key: 'id', header: 'ID', className: 'col-code', render: (p) => <code>{p.id}</code> },
                { key: 'entity', header: 'Entity ID', className: 'col-code', render: (p) => (p.metadata ? <code>{p.metadata.entity_id}</code> : 'Unreadable metadata') },
                { key: 'expiry', header: 'Certificate expires', render: (p) => (p.metadata ? formatDate(p.metadata.certificate_expiry) : '—') },
              ]}
            />
          </Card>
        )}
      </QueryView>
      <Card title="Add a provider" testId="saml-add-card">
        <form className="inline-form" onSubmit={add} data-testid="saml-add-form">
          <TextField
            label="Provider ID"
            hint="Part of the provider's URLs; it cannot change later. Such as okta or corp-sso."
            value={newId}
            error={idError}
            onChange={(e) => (setNewId(e.target.value), setIdError(undefined))}
            autoComplete="off"
            data-testid="saml-new-id"
          />
          <Button type="submit" variant="primary" disabled={unavailable || !list.data} data-testid="saml-add-submit">
            Add SAML provider
          </Button>
        </form>
      </Card>
    </div>
  );
}
