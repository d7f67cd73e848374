import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useLocation } from 'wouter';
import { formatDate } from '../../../../shared/domain/format';
import { ORGANIZATIONS_PAGE_SIZE } from '../../../../shared/schemas/organizations';
import { ActionForm, useActionForm } from '../../components/ActionForm';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { TextArea, TextField } from '../../components/TextField';
import { quotaFailure, UpgradePrompt } from '../../components/UpgradePrompt';
import { usePagedList } from '../../lib/use-paged-list';
import { useUrlState } from '../../lib/use-url-state';
import { useDebounced } from '../../lib/use-debounced';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { organizationFormSchema, splitDomains } from './organization-form';

function CreateOrganizationDialog({ projectId, onClose, onRefused }: { projectId: string; onClose: () => void; onRefused: () => void }) {
  const [, navigate] = useLocation();
  const create = trpc.organizations.create.useMutation();
  const action = useActionForm({
    schema: organizationFormSchema,
    defaultValues: { label: '', domains: '' },
    onSubmit: ({ label, domains }) => create.mutateAsync({ projectId, label, domains: splitDomains(domains) }),
    onDone: (org) => {
      toast.success(`Organization ${org.label} created`);
      navigate(ROUTES.organization.build({ project: projectId, id: org.id }));
    },
    reportsError: (error) => {
      if (!quotaFailure(error)) return false;
      onRefused();
      onClose();
      return true;
    },
    errorFallback: 'The organization could not be created.',
  });
  const errors = action.form.formState.errors;
  return (
    <Dialog
      open
      onClose={onClose}
      title="Create organization"
      testId="create-organization-dialog"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form={action.id} busy={action.busy} data-testid="create-organization-submit">
            Create organization
          </Button>
        </>
      }
    >
      <ActionForm action={action} testId="create-organization-form">
        <TextField label="Name" autoComplete="off" error={errors.label?.message} data-testid="organization-label" {...action.form.register('label')} />
        <TextArea
          label="Domains"
          rows={3}
          hint="Email domains of the organization's users, separated by commas or new lines, such as example.com."
          error={errors.domains?.message}
          data-testid="organization-domains"
          {...action.form.register('domains')}
        />
      </ActionForm>
    </Dialog>
  );
}

/**
 * /projects/{project}/authentication/organizations: the project's organizations, 25 a page, found by domain;
 * creating one needs a plan with organizations (the upgrade prompt says which).
 */
export default function OrganizationsPage() {
  const project = useProject();
  const projectId = project.id;
  const paged = usePagedList();
  const [url, setUrl] = useUrlState(['domain']);
  const [typed, setTyped] = useState(url.domain ?? '');
  const domain = useDebounced(typed.trim().toLowerCase(), 300);
  const [creating, setCreating] = useState(false);
  const [refused, setRefused] = useState(false);
  const quota = trpc.quota.get.useQuery({ projectId, feature: 'organizations' });
  const list = trpc.organizations.list.useQuery(
    { projectId, pageSize: ORGANIZATIONS_PAGE_SIZE, ...(domain ? { domain } : {}), ...(paged.pageToken ? { pageToken: paged.pageToken } : {}) },
    { placeholderData: (previous) => previous },
  );
  const unavailable = refused || quota.data?.feature_available === false;

  const createButton = (testId: string) => (
    <Button variant="primary" onClick={() => setCreating(true)} disabled={quota.data?.feature_available === false} data-testid={testId}>
      Create organization
    </Button>
  );
  return (
    <div className="page" data-testid="organizations-page">
      <PageHeader title="Organizations" description="Companies whose users sign in with their own identity provider, recognised by the domain of their email address." actions={createButton('organization-create-open')} />
      {unavailable && <UpgradePrompt feature="organizations" units={(quota.data?.used ?? 0) + 1} workspaceId={project.workspace_id} projectId={projectId} />}
      <Card>
        <TextField
          label="Find by domain"
          type="search"
          value={typed}
          onChange={(e) => {
            setTyped(e.target.value);
            setUrl({ ...paged.firstPage, domain: e.target.value.trim() });
          }}
          hint="An exact domain, such as example.com."
          data-testid="organizations-domain-filter"
        />
        <QueryView
          query={list}
          skeleton="table"
          errorTitle="The organizations could not be loaded"
          isEmpty={(page) => page.organizations.length === 0 && !paged.pageToken}
          empty={{
            title: domain ? 'No organization has this domain' : 'No organizations yet',
            description: domain
              ? 'Check the spelling: the domain must match one of an organization\u2019s domains exactly.'
              : 'An organization groups the users of one company by their email domain, so that they sign in with the company\u2019s own identity provider.',
            ...(domain || unavailable ? {} : { action: createButton('organization-create-empty') }),
          }}
        >
          {(page) => (
            <>
              <Table
                caption="Organizations"
                testId="organizations-table"
                rowKey={(o) => o.id}
                rows={page.organizations}
                columns={[
                  {
                    key: 'label',
                    header: 'Name',
                    className: 'col-name',
                    render: (o) => (
                      <Link href={ROUTES.organization.build({ project: projectId, id: o.id })} data-testid={`organization-link-${o.label}`}>
                        {o.label}
                      </Link>
                    ),
                  },
                  { key: 'domains', header: 'Domains', render: (o) => (o.domains.length ? o.domains.join(', ') : <em>None</em>) },
                  { key: 'created', header: 'Created', render: (o) => formatDate(o.created_at) },
                ]}
              />
              {paged.pager({ label: 'Organization pages', nextToken: page.has_next_page ? page.next_page_token : undefined, busy: list.isFetching, testId: 'organizations-pager' })}
            </>
          )}
        </QueryView>
      </Card>
      {creating && <CreateOrganizationDialog projectId={projectId} onClose={() => setCreating(false)} onRefused={() => setRefused(true)} />}
    </div>
  );
}
