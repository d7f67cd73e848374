import { useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { Tooltip } from '../../components/Tooltip';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';

/**
 * Ends the project's own subscription: the project then follows its workspace's plan, or Develop when it has
 * none. Owners only; refused, with the reason, when what the project uses does not fit that plan.
 */
export function UnlinkSubscriptionCard({ projectId, projectName, workspaceId }: { projectId: string; projectName: string; workspaceId: string | null }) {
  const [confirming, setConfirming] = useState(false);
  const permissions = trpc.permissions.project.useQuery({ projectId, permissions: ['backoffice.project.upgrade'] }, { staleTime: 60_000 });
  const canUnlink = permissions.data?.['backoffice.project.upgrade'] === true;
  const unlink = trpc.billing.unlinkProject.useMutation();
  const fallback = workspaceId ? 'the plan of its workspace' : 'the free Develop plan';

  return (
    <Card title="Unlink subscription" testId="unlink-subscription-card">
      <p className="card-text">Ends this project's own subscription. The project then follows {fallback}.</p>
      {canUnlink ? (
        <Button variant="danger" onClick={() => setConfirming(true)} data-testid="unlink-subscription-button">
          Unlink subscription
        </Button>
      ) : (
        <Tooltip content="Only an owner of this project can change its billing.">
          <Button variant="danger" disabled data-testid="unlink-subscription-button">
            Unlink subscription
          </Button>
        </Tooltip>
      )}
      <ConfirmDialog
        open={confirming}
        title="Unlink the subscription?"
        message={
          <p>
            <strong>{projectName}</strong> stops being billed on its own and follows {fallback}. If it uses more than that plan allows, nothing changes
            and you are told why.
          </p>
        }
        confirmLabel="Unlink subscription"
        busy={unlink.isPending}
        error={unlink.error ? (errorText(unlink.error) ?? 'The subscription could not be unlinked.') : undefined}
        onConfirm={() =>
          !unlink.isPending &&
          unlink.mutate(
            { projectId },
            {
              onSuccess: () => {
                setConfirming(false);
                toast.success('The subscription is unlinked.');
              },
            },
          )
        }
        onClose={() => {
          setConfirming(false);
          unlink.reset();
        }}
        testId="unlink-subscription-dialog"
      />
    </Card>
  );
}
