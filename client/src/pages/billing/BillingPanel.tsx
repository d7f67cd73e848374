import { useState } from 'react';
import { formatMoney } from '../../../../shared/domain/format';
import { periodLabel } from './period-label';
import { MESSAGES } from '../../../../shared/messages';
import { Button, LinkButton } from '../../components/Button';
import { Card, EmptyState } from '../../components/Card';
import { LoadError, QueryView } from '../../components/QueryView';
import { Tooltip } from '../../components/Tooltip';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { trpc } from '../../trpc';
import type { TeamScope } from '../team/scope';
import { useIsOwner } from '../team/use-owner';
import { InvoiceList } from './InvoiceList';
import { UsageChart } from './UsageChart';


/** Where the plan of this scope changes: the workspace's subscription page, or this project's billing page. */
const subscriptionHref = (scope: TeamScope) =>
  'workspaceId' in scope ? ROUTES.workspaceSubscription.build({ workspace: scope.workspaceId }) : ROUTES.projectBilling.build({ project: scope.projectId });

/**
 * The billing of a workspace or a project: the plan in force and its period, usage so far against what the
 * plan includes, the estimated bill, the invoices (paged) and the way to the customer portal.
 */
export function BillingPanel({ scope, planChooser, projectWorkspaceId = null }: { scope: TeamScope; planChooser?: boolean; projectWorkspaceId?: string | null }) {
  const subscription = trpc.billing.getSubscription.useQuery(scope, { retry: false, retryOnMount: false });
  const noSubscription = errorText(subscription.error) === MESSAGES.projectHasNoSubscription;
  if (noSubscription && 'projectId' in scope) return <NoProjectSubscription workspaceId={projectWorkspaceId} />;

  return (
    <QueryView query={subscription} skeleton="card" errorTitle="The plan could not be loaded">
      {(answer) => (
        <div className="billing" data-testid="billing-panel">
          <CurrentPeriod scope={scope} planName={answer.planName} interval={answer.subscription?.current_interval ?? null} currency={answer.subscription?.currency ?? null} planChooser={planChooser ?? false} />
          <InvoiceList scope={scope} />
        </div>
      )}
    </QueryView>
  );
}

function NoProjectSubscription({ workspaceId }: { workspaceId: string | null }) {
  return (
    <Card title="Plan" testId="billing-no-subscription">
      <EmptyState
        title={MESSAGES.projectHasNoSubscription}
        description={
          workspaceId
            ? "This project is billed with its workspace: the workspace's plan, usage and invoices cover it."
            : 'This project is on the free Develop plan. Choose a plan below to take it to production.'
        }
        action={
          workspaceId ? (
            <LinkButton href={ROUTES.workspaceBilling.build({ workspace: workspaceId })} data-testid="workspace-billing-link">
              Open the workspace's billing
            </LinkButton>
          ) : undefined
        }
      />
    </Card>
  );
}

function CurrentPeriod({ scope, planName, interval, currency, planChooser }: { scope: TeamScope; planName: string; interval: string | null; currency: string | null; planChooser: boolean }) {
  const invoices = trpc.billing.invoices.useQuery(scope);
  const open = invoices.data?.periods.find((p) => p.open) ?? null;
  return (
    <Card
      title="Plan and this period"
      testId="billing-current"
      actions={
        !planChooser && (
          <LinkButton href={subscriptionHref(scope)} variant="secondary" data-testid="change-plan-link">
            Change plan
          </LinkButton>
        )
      }
    >
      <dl className="facts">
        <div>
          <dt>Plan</dt>
          <dd data-testid="billing-plan-name">{planName}</dd>
        </div>
        <div>
          <dt>Billed</dt>
          <dd>{interval ? `${interval === 'yearly' ? 'Yearly' : 'Monthly'}, in ${(currency ?? 'usd').toUpperCase()}` : 'Nothing: Develop is free'}</dd>
        </div>
        {open && (
          <div>
            <dt>This period</dt>
            <dd data-testid="billing-period">{periodLabel(open)}</dd>
          </div>
        )}
        {open && (
          <div>
            <dt>Estimated bill</dt>
            <dd data-testid="billing-estimate">{formatMoney(open.totalCents, open.currency)}</dd>
          </div>
        )}
      </dl>
      {invoices.isError ? (
        <LoadError title="Usage could not be loaded" error={invoices.error} onRetry={() => void invoices.refetch()} retrying={invoices.isRefetching} />
      ) : open ? (
        <UsageChart period={open} />
      ) : invoices.isPending ? null : (
        <p className="muted">Usage is measured once a paid plan starts.</p>
      )}
      <PortalButton scope={scope} />
    </Card>
  );
}

/** Opens the customer portal (payment method, billing address, invoices) for owners. */
function PortalButton({ scope }: { scope: TeamScope }) {
  const isOwner = useIsOwner(scope);
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  const open = async () => {
    setError(null);
    setOpening(true);
    try {
      const answer = await utils.billing.portalUrl.fetch(scope, { staleTime: 0 });
      if (answer.url) window.location.assign(answer.url);
      else setError('There is no billing portal yet: it opens once a paid plan starts.');
    } catch (err) {
      setError(errorText(err) ?? 'The billing portal could not be opened. Try again.');
    } finally {
      setOpening(false);
    }
  };
  const button = (
    <Button onClick={() => void open()} busy={opening} disabled={!isOwner} data-testid="billing-portal-button">
      Manage payment method and invoices
    </Button>
  );
  return (
    <div className="billing-portal">
      {isOwner ? button : <Tooltip content="Only an owner can manage the payment method.">{button}</Tooltip>}
      {error && (
        <p className="field-error" role="alert" data-testid="billing-portal-error">
          {error}
        </p>
      )}
    </div>
  );
}
