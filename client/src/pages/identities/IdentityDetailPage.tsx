import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useLocation, useParams } from 'wouter';
import { identityLabel, identityName } from '../../../../shared/domain/identity-display';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { AddressesCard, CredentialsCard } from './IdentityCredentials';
import { MetadataCard } from './MetadataCard';
import { RecoveryCard } from './RecoveryCard';
import { SessionsTable } from './SessionsTable';
import { TraitsCard } from './TraitsCard';

/**
 * /projects/{project}/identities/{identity}: one identity — traits edited in its schema's form, public and
 * admin metadata, credentials and their identifiers, addresses and their status, sessions, recovery, state
 * and deletion.
 */
export default function IdentityDetailPage() {
  const project = useProject();
  const projectId = project.id;
  const { identity: identityId = '' } = useParams<{ identity: string }>();
  const [, navigate] = useLocation();
  const identity = trpc.identities.get.useQuery({ projectId, identityId });
  // The traits form is built from the schema: the cards show once both are in, so none jumps down as it arrives.
  const schemas = trpc.identities.schemas.useQuery({ projectId });
  const utils = trpc.useUtils();
  const [deleting, setDeleting] = useState(false);
  const remove = trpc.identities.delete.useMutation({
    onSuccess: () => {
      toast.success('Identity deleted');
      navigate(ROUTES.identities.build({ project: projectId }), { replace: true });
    },
  });
  const setState = trpc.identities.setState.useMutation({
    onSuccess: (updated) => {
      utils.identities.get.setData({ projectId, identityId }, updated);
      toast.success(updated.state === 'inactive' ? 'Identity deactivated' : 'Identity activated');
    },
    onError: (err) => toast.error(errorText(err) ?? 'The state could not be changed.'),
  });

  return (
    <div className="page" data-testid="identity-page">
      {!identity.data && <PageHeader title="Identity" />}
      <QueryView query={identity} waitFor={[schemas]} skeleton="details" errorTitle="The identity could not be loaded">
        {(loaded) => {
          const label = identityLabel(loaded);
          const inactive = loaded.state === 'inactive';
          return (
            <>
              <PageHeader
                title={label}
                description={
                  <>
                    {identityName(loaded) ? `${identityName(loaded)} · ` : ''}
                    <span className={`badge badge-${inactive ? 'stage' : 'prod'}`} data-testid="identity-state">
                      {inactive ? 'Inactive' : 'Active'}
                    </span>{' '}
                    <code>{loaded.id}</code>
                    {loaded.organization_id && (
                      <>
                        {' · '}
                        <span data-testid="identity-organization">
                          Member of organization{' '}
                          <Link href={ROUTES.organization.build({ project: projectId, id: loaded.organization_id })}>
                            <code>{loaded.organization_id}</code>
                          </Link>
                        </span>
                      </>
                    )}
                  </>
                }
                actions={
                  <>
                    <Button busy={setState.isPending} onClick={() => setState.mutate({ projectId, identityId, state: inactive ? 'active' : 'inactive' })} data-testid="identity-toggle-state">
                      {inactive ? 'Activate' : 'Deactivate'}
                    </Button>
                    <Button variant="danger" onClick={() => setDeleting(true)} data-testid="identity-delete-open">
                      Delete
                    </Button>
                  </>
                }
              />
              <div className="detail-grid">
                <TraitsCard projectId={projectId} identity={loaded} />
                <CredentialsCard projectId={projectId} identity={loaded} />
                <AddressesCard identity={loaded} />
                <Card title="Sessions" testId="identity-sessions-card">
                  <SessionsTable projectId={projectId} identityId={identityId} />
                </Card>
                <RecoveryCard projectId={projectId} identityId={identityId} />
                <MetadataCard projectId={projectId} identity={loaded} />
              </div>
              <ConfirmDialog
                open={deleting}
                title="Delete this identity?"
                message={`${label} loses every credential, session and address at once. This cannot be undone.`}
                confirmText={label}
                confirmLabel="Delete identity"
                busy={remove.isPending}
                error={remove.error ? (errorText(remove.error) ?? 'The identity could not be deleted.') : undefined}
                onConfirm={() => remove.mutate({ projectId, identityId })}
                onClose={() => (setDeleting(false), remove.reset())}
                testId="identity-delete-dialog"
              />
            </>
          );
        }}
      </QueryView>
    </div>
  );
}
