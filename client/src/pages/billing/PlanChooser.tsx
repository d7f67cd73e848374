import { useState, type CSSProperties } from 'react';
import toast from 'react-hot-toast';
import { PREFERRED_PLAN_STORAGE_KEY } from '../../../../shared/constants';
import { EXTERNAL_LINKS } from '../../../../shared/external-links';
import { formatPrice } from '../../../../shared/domain/format';
import { featureText, intervalPrice, planChange, type Interval } from '../../../../shared/domain/plan-diff';
import { resolvePlanId } from '../../../../shared/domain/plans';
import type { PlanId } from '../../../../shared/schemas/plans';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { analytics, ANALYTICS_EVENTS } from '../../lib/analytics';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';
import type { TeamScope } from '../team/scope';
import { useIsOwner } from '../team/use-owner';

type Currency = 'usd' | 'eur';
const money = formatPrice;

/** The plan stored from a `preferred_plan` link (spec §2), when it names a plan of the catalogue. */
function preferredPlan(): PlanId | null {
  try {
    return resolvePlanId(window.localStorage.getItem(PREFERRED_PLAN_STORAGE_KEY)) ?? null;
  } catch {
    return null;
  }
}

/**
 * The plan cards of the catalogue with a monthly/yearly switch and a currency switch; the plan in force is
 * marked, a preferred plan from the link the user came by is preselected. Choosing another plan shows what
 * changes — features gained and lost, the price difference — and asks before changing. Only owners change plans.
 */
export function PlanChooser({ scope }: { scope: TeamScope }) {
  const plans = trpc.billing.plans.useQuery();
  // Mounted after the plan is known: an answer of "no subscription" is not asked again just for mounting.
  const subscription = trpc.billing.getSubscription.useQuery(scope, { retry: false, retryOnMount: false });
  const isOwner = useIsOwner(scope);
  const currentId = (subscription.data?.planId ?? 'Develop@0') as PlanId;
  const [interval, setInterval] = useState<Interval | null>(null);
  const [currency, setCurrency] = useState<Currency | null>(null);
  const [chosen, setChosen] = useState<PlanId | null>(() => preferredPlan());
  const [confirming, setConfirming] = useState(false);
  const change = trpc.billing.changePlan.useMutation({
    onSuccess: (answer, input) => {
      analytics.capture(ANALYTICS_EVENTS.pricingPlanChanged, { from: currentId, to: answer.planId, interval: input.interval, currency: input.currency });
      toast.success(`You are now on the ${answer.planName} plan`);
      setConfirming(false);
      setChosen(null);
      try {
        window.localStorage.removeItem(PREFERRED_PLAN_STORAGE_KEY);
      } catch {
        // Storage may be unavailable; the preference only preselects a card.
      }
    },
  });
  const effectiveInterval: Interval = interval ?? subscription.data?.subscription?.current_interval ?? 'monthly';
  const effectiveCurrency: Currency = currency ?? (subscription.data?.subscription?.currency as Currency | undefined) ?? 'usd';
  // The currency of a running subscription is fixed; a new one chooses it.
  const currencyFixed = Boolean(subscription.data?.subscription);

  return (
    <Card title="Plans" testId="plan-chooser">
      <QueryView query={plans} skeleton="card" waitFor={[subscription]} errorTitle="The plans could not be loaded">
        {(catalogue) => {
          const byId = new Map(catalogue.map((p) => [p.id, p]));
          const current = byId.get(currentId) ?? catalogue[0]!;
          const target = chosen && chosen !== currentId ? byId.get(chosen) : undefined;
          const prices = Object.fromEntries(catalogue.map((p) => [p.id, p.prices]));
          const diff = target ? planChange(current, target, effectiveInterval, effectiveCurrency, prices) : null;
          return (
            <>
              <div className="plan-switches">
                <fieldset className="segmented" data-testid="interval-switch">
                  <legend className="sr-only">Billing interval</legend>
                  {(['monthly', 'yearly'] as const).map((i) => (
                    <label key={i} className={effectiveInterval === i ? 'segmented-on' : undefined}>
                      <input type="radio" name="interval" value={i} checked={effectiveInterval === i} onChange={() => setInterval(i)} data-testid={`interval-${i}`} />
                      {i === 'monthly' ? 'Monthly' : 'Yearly'}
                    </label>
                  ))}
                </fieldset>
                <fieldset className="segmented" data-testid="currency-switch" disabled={currencyFixed}>
                  <legend className="sr-only">Currency</legend>
                  {(['usd', 'eur'] as const).map((c) => (
                    <label key={c} className={effectiveCurrency === c ? 'segmented-on' : undefined}>
                      <input type="radio" name="currency" value={c} checked={effectiveCurrency === c} onChange={() => setCurrency(c)} data-testid={`currency-${c}`} />
                      {c.toUpperCase()}
                    </label>
                  ))}
                </fieldset>
                {currencyFixed && <p className="muted">Billed in {effectiveCurrency.toUpperCase()}: the currency is chosen when a subscription starts.</p>}
              </div>
              {!isOwner && <p className="banner" role="status">Only an owner can change the plan. You can compare the plans here.</p>}
              <fieldset className="plan-cards">
                <legend className="sr-only">Plan</legend>
                {catalogue.map((plan) => {
                  const price = intervalPrice(plan, effectiveInterval, effectiveCurrency);
                  const isCurrent = plan.id === currentId;
                  const selected = (chosen ?? currentId) === plan.id;
                  return (
                    <label
                      key={plan.id}
                      className={`plan-card${selected ? ' plan-card-selected' : ''}`}
                      style={{ borderColor: selected ? plan.colours.accent : undefined, borderTopColor: plan.colours.accent, '--plan-accent': plan.colours.accent } as CSSProperties}
                      data-testid={`plan-card-${plan.name.toLowerCase()}`}
                    >
                      <input type="radio" name="plan" value={plan.id} checked={selected} onChange={() => setChosen(plan.id)} className="plan-radio" />
                      <span className="plan-name">
                        {plan.name}
                        {isCurrent && (
                          <span className="badge badge-prod plan-current" data-testid="plan-current">
                            Current plan
                          </span>
                        )}
                      </span>
                      <span className="plan-price" data-testid="plan-price">
                        {price === null ? `From ${money(plan.price, effectiveCurrency)} a month` : price === 0 ? 'Free' : `${plan.priceFrom ? 'From ' : ''}${money(price, effectiveCurrency)} ${effectiveInterval === 'monthly' ? 'a month' : 'a year'}`}
                      </span>
                      {effectiveInterval === 'monthly' && plan.priceYearly !== null && plan.priceYearly > 0 && (
                        <span className="muted">or {money(intervalPrice(plan, 'yearly', effectiveCurrency) ?? plan.priceYearly, effectiveCurrency)} a year</span>
                      )}
                      <span className="plan-description">{plan.description}</span>
                      <ul className="plan-features">
                        {plan.features.map((f) => (
                          <li key={f.key} className={f.negative ? 'plan-feature-negative' : undefined}>
                            {featureText(f)}
                            {f.disclaimer && <span className="plan-disclaimer"> ({f.disclaimer})</span>}
                          </li>
                        ))}
                        {plan.features.length === 0 && <li>Custom quotas, support and terms</li>}
                      </ul>
                    </label>
                  );
                })}
              </fieldset>
              <div className="form-actions">
                {target?.id === 'enterprise' ? (
                  <a className="btn btn-primary" href={EXTERNAL_LINKS.talkToSales} target="_blank" rel="noreferrer">
                    Talk to sales about Enterprise
                  </a>
                ) : (
                  <Button variant="primary" disabled={!target || !isOwner} onClick={() => (change.reset(), setConfirming(true))} data-testid="plan-change-open">
                    {target ? `${diff?.direction === 'downgrade' ? 'Downgrade' : 'Upgrade'} to ${target.name}` : 'Choose a plan'}
                  </Button>
                )}
              </div>
              {target && diff && (
                <Dialog
                  open={confirming}
                  onClose={() => setConfirming(false)}
                  title={`${diff.direction === 'downgrade' ? 'Downgrade' : 'Upgrade'} to ${target.name}?`}
                  description={`From ${current.name} to ${target.name}, billed ${effectiveInterval} in ${effectiveCurrency.toUpperCase()}.`}
                  testId="plan-change-dialog"
                  footer={
                    <>
                      <Button onClick={() => setConfirming(false)}>Cancel</Button>
                      <Button
                        variant="primary"
                        busy={change.isPending}
                        onClick={() => change.mutate({ ...scope, plan: target.id, interval: effectiveInterval, currency: effectiveCurrency })}
                        data-testid="plan-change-confirm"
                      >
                        Change plan
                      </Button>
                    </>
                  }
                >
                  <div className="plan-diff" data-testid="plan-diff">
                    {diff.priceDifference !== null && (
                      <p data-testid="plan-price-difference">
                        {diff.priceDifference >= 0 ? `${money(diff.priceDifference, effectiveCurrency)} more` : `${money(-diff.priceDifference, effectiveCurrency)} less`} {effectiveInterval === 'monthly' ? 'a month' : 'a year'}, plus usage at the new plan's rates.
                      </p>
                    )}
                    {diff.gained.length > 0 && (
                      <>
                        <h3>You gain</h3>
                        <ul data-testid="plan-gained">
                          {diff.gained.map((g) => (
                            <li key={g}>{g}</li>
                          ))}
                        </ul>
                      </>
                    )}
                    {diff.lost.length > 0 && (
                      <>
                        <h3>You lose</h3>
                        <ul data-testid="plan-lost">
                          {diff.lost.map((l) => (
                            <li key={l}>{l}</li>
                          ))}
                        </ul>
                      </>
                    )}
                    {change.error && (
                      <p className="field-error" role="alert" data-testid="plan-change-error">
                        {errorText(change.error) ?? 'The plan could not be changed.'}
                      </p>
                    )}
                  </div>
                </Dialog>
              )}
            </>
          );
        }}
      </QueryView>
    </Card>
  );
}
