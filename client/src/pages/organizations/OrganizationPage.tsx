import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useLocation, useParams } from 'wouter';
import { formatDateTime, formatNumber } from '../../../../shared/domain/format';
import { onboardingPortalUrl } from '../../../../shared/domain/onboarding-portal';
import type { OnboardingPortalLinkView, OrganizationView } from '../../../../shared/schemas/organizations';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { CopyValue } from '../../components/CopyButton';
import { ConfirmDialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { Table } from '../../components/Table';
import { TextArea, TextField } from '../../components/TextField';
import { quotaFailure, UpgradePrompt } from '../../components/UpgradePrompt';
import { errorText } from '../../lib/errors';
import { QUERY_RULES } from '../../lib/query-client';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { organizationFormSchema, splitDomains } from './organization-form';

const WEEK_MS = 7 * 24 * 3600_000;

function OrganizationSettings({ projectId, organization }: { projectId: string; organization: OrganizationView }) {
  const utils = trpc.useUtils();
  const update = trpc.organizations.update.useMutation({ onSuccess: (saved) => utils.organizations.get.setData({ projectId, organizationId: organization.id }, saved) });
  return (
    <SettingsForm
      schema={organizationFormSchema}
      values={{ label: organization.label, domains: organization.domains.join('\n') }}
      testId="organization-settings"
      submitLabel="Save changes"
      errorContext="Could not save the organization"
      onSave={(changes) =>
        update.mutateAsync({
          projectId,
          organizationId: organization.id,
          ...(changes.label !== undefined ? { label: changes.label } : {}),
          ...(changes.domains !== undefined ? { domains: splitDomains(changes.domains) } : {}),
        })
      }
      onSaved={() => toast.success('Organization saved')}
    >
      {(form) => (
        <>
          <TextField label="Name" autoComplete="off" error={form.formState.errors.label?.message} data-testid="organization-label" {...form.register('label')} />
          <TextArea
            label="Domains"
            rows={4}
            hint="One per line. Users whose email address is at one of these domains sign in through this organization."
            error={form.formState.errors.domains?.message}
            data-testid="organization-domains"
            {...form.register('domains')}
          />
        </>
      )}
    </SettingsForm>
  );
}

function OnboardingLinks({ projectId, organizationId, workspaceId }: { projectId: string; organizationId: string; workspaceId: string | null | undefined }) {
  const links = trpc.onboardingLinks.list.useQuery({ projectId, organizationId });
  const endpoint = trpc.projects.endpoint.useQuery({ projectId }, QUERY_RULES.project);
  const apiUrl = endpoint.data?.apiUrl;
  const [refused, setRefused] = useState(false);
  const [deleting, setDeleting] = useState<OnboardingPortalLinkView | null>(null);
  const create = trpc.onboardingLinks.create.useMutation({
    onSuccess: () => toast.success('Onboarding link created'),
    onError: (err) => (quotaFailure(err) ? setRefused(true) : toast.error(errorText(err) ?? 'The link could not be created.')),
  });
  const extend = trpc.onboardingLinks.update.useMutation({
    onSuccess: () => toast.success('The link now lasts another week'),
    onError: (err) => toast.error(errorText(err) ?? 'The link could not be extended.'),
  });
  const remove = trpc.onboardingLinks.delete.useMutation({ onSuccess: () => (toast.success('Onboarding link deleted'), setDeleting(null)) });
  const now = Date.now();
  return (
    <Card
      title="Onboarding links"
      testId="onboarding-links-card"
      actions={
        <Button busy={create.isPending} onClick={() => create.mutate({ projectId, organizationId, enableSso: true, enableScim: false })} data-testid="onboarding-link-create">
          Create link
        </Button>
      }
    >
      <p className="hint">Send a link to the company's administrator: with it they set up their single sign-on without a console account. Whoever opens it can configure the organization's OpenID Connect provider, and nothing else; a link lasts a week.</p>
      {refused && <UpgradePrompt feature="onboarding_portal" units={1} workspaceId={workspaceId} projectId={projectId} />}
      <QueryView query={links} skeleton="table" errorTitle="The onboarding links could not be loaded" isEmpty={(l) => l.links.length === 0} empty={{ title: 'No onboarding links', description: 'Create one to let the company set up its own sign-in.' }}>
        {({ links: rows }) => (
          <Table
            caption="Onboarding links"
            testId="onboarding-links-table"
            rowKey={(l) => l.id}
            rows={rows}
            columns={[
              {
                key: 'value',
                header: 'Link',
                className: 'col-code',
                render: (l) =>
                  apiUrl ? (
                    <CopyValue value={onboardingPortalUrl(apiUrl, l.value)} label="Copy the onboarding link" testId={`onboarding-link-value-${l.id}`} />
                  ) : (
                    <CopyValue value={l.value} label="Copy the onboarding link token" testId={`onboarding-link-value-${l.id}`} />
                  ),
              },
              {
                key: 'expires',
                header: 'Expires',
                render: (l) =>
                  new Date(l.expires_at).getTime() <= now ? (
                    <span className="badge badge-stage">Expired</span>
                  ) : (
                    <span data-testid={`onboarding-link-expiry-${l.id}`}>{formatDateTime(l.expires_at)}</span>
                  ),
              },
              { key: 'scope', header: 'Sets up', render: (l) => [l.enable_sso ? 'SSO' : null, l.enable_scim ? 'SCIM' : null].filter(Boolean).join(', ') || 'Nothing' },
              {
                key: 'actions',
                header: 'Actions',
                render: (l) => (
                  <div className="row-actions">
                    <Button
                      variant="ghost"
                      busy={extend.isPending && extend.variables?.linkId === l.id}
                      onClick={() => extend.mutate({ projectId, organizationId, linkId: l.id, enableSso: l.enable_sso !== false, enableScim: l.enable_scim === true, expiresAt: new Date(Date.now() + WEEK_MS).toISOString() })}
                    >
                      Extend a week
                    </Button>
                    <Button variant="ghost" onClick={() => setDeleting(l)} data-testid={`onboarding-link-delete-${l.id}`}>
                      Delete
                    </Button>
                  </div>
                ),
              },
            ]}
          />
        )}
      </QueryView>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this onboarding link?"
        message="Whoever has it can no longer use it."
        confirmLabel="Delete link"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'Could not delete the link.') : undefined}
        onConfirm={() => deleting && remove.mutate({ projectId, organizationId, linkId: deleting.id })}
        onClose={() => (setDeleting(null), remove.reset())}
        testId="delete-onboarding-link-dialog"
      />
    </Card>
  );
}

/** How many identities of the project belong to the organization (registered through its sign-on, or given it by an admin). */
function MembersCount({ projectId, organizationId }: { projectId: string; organizationId: string }) {
  const members = trpc.organizations.members.useQuery({ projectId, organizationId });
  if (members.isError) return <span data-testid="organization-members">Members could not be counted</span>;
  if (!members.data) return <span data-testid="organization-members" aria-busy="true">Counting members…</span>;
  const { count, more } = members.data;
  return (
    <span data-testid="organization-members">
      {formatNumber(count)}
      {more ? '+' : ''} {count === 1 && !more ? 'member' : 'members'}
    </span>
  );
}

/** The social sign-in providers the organization's users are sent to. */
function SsoConnections({ projectId, organizationId }: { projectId: string; organizationId: string }) {
  const providers = trpc.socialProviders.list.useQuery({ projectId });
  return (
    <Card title="Single sign-on" testId="organization-sso-card">
      <QueryView query={providers} errorTitle="The sign-in providers could not be loaded">
        {(list) => {
          const own = list.providers.filter((p) => p.organization_id === organizationId);
          return own.length === 0 ? (
            <p className="hint" data-testid="organization-sso-empty">
              No provider yet. Add an OpenID Connect provider on the <Link href={ROUTES.socialSignin.build({ project: projectId })}>social sign-in page</Link> and pick this organization in its form: users of its domains are then sent there when they sign in.
            </p>
          ) : (
            <ul className="plain-list" data-testid="organization-sso-list">
              {own.map((p) => (
                <li key={p.id}>
                  <Link href={ROUTES.socialProvider.build({ project: projectId, provider: p.id })}>{p.label || p.id}</Link> <code>{p.id}</code>
                </li>
              ))}
            </ul>
          );
        }}
      </QueryView>
    </Card>
  );
}

/**
 * /projects/{project}/authentication/organizations/{id}: an organization's name and domains, its onboarding
 * links (copy, expiry) and its deletion, confirmed by typing its name.
 */
export default function OrganizationPage() {
  const project = useProject();
  const projectId = project.id;
  const { id: organizationId = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const organization = trpc.organizations.get.useQuery({ projectId, organizationId });
  const [deleting, setDeleting] = useState(false);
  const remove = trpc.organizations.delete.useMutation({
    onSuccess: () => {
      toast.success('Organization deleted');
      navigate(ROUTES.organizations.build({ project: projectId }), { replace: true });
    },
  });
  return (
    <div className="page page-narrow" data-testid="organization-page">
      {!organization.data && <PageHeader title="Organization" />}
      <QueryView query={organization} skeleton="form" errorTitle="The organization could not be loaded">
        {(loaded) => (
          <>
            <PageHeader
              title={loaded.label}
              description={
                <>
                  Created {formatDateTime(loaded.created_at)} · <MembersCount projectId={projectId} organizationId={loaded.id} /> · <code>{loaded.id}</code>
                </>
              }
            />
            <Card title="General">
              <OrganizationSettings key={loaded.id} projectId={projectId} organization={loaded} />
            </Card>
            <SsoConnections projectId={projectId} organizationId={loaded.id} />
            <OnboardingLinks projectId={projectId} organizationId={loaded.id} workspaceId={project.workspace_id} />
            <Card title="Delete organization" testId="delete-organization-card">
              <p>Its users keep their accounts, but no longer sign in through the organization. Its onboarding links stop working.</p>
              <Button variant="danger" onClick={() => setDeleting(true)} data-testid="organization-delete-open">
                Delete organization
              </Button>
              <ConfirmDialog
                open={deleting}
                title={`Delete ${loaded.label}?`}
                message="This cannot be undone."
                confirmText={loaded.label}
                confirmLabel="Delete organization"
                busy={remove.isPending}
                error={remove.error ? (errorText(remove.error) ?? 'Could not delete the organization.') : undefined}
                onConfirm={() => remove.mutate({ projectId, organizationId: loaded.id })}
                onClose={() => (setDeleting(false), remove.reset())}
                testId="delete-organization-dialog"
              />
            </Card>
          </>
        )}
      </QueryView>
    </div>
  );
}
