import { formatMoney } from '../../../../shared/domain/format';
import type { BillingPeriod } from '../../../../shared/schemas/billing';

/**
 * Usage of the open period against what the plan includes: each metered line's cost as a bar against the
 * included credit, and the credit used so far. Read by screen readers as the table beside it.
 */
export function UsageChart({ period }: { period: BillingPeriod }) {
  const usage = period.invoices.find((i) => i.type === 'usage');
  if (!usage) return null;
  const metered = usage.lines.filter((l) => l.amountCents >= 0);
  const credit = usage.lines.find((l) => l.amountCents < 0 || l.title === 'Included credit');
  const creditUsed = Math.abs(credit?.amountCents ?? 0);
  const meteredTotal = metered.reduce((sum, l) => sum + l.amountCents, 0);
  // One fixed scale: the credit the plan includes. Every bar reads as a share of it (a full bar: the
  // credit is spent), so bars are not stretched against each other; without a credit, the usage so far.
  const included = credit?.unitPriceCents !== null && credit?.unitPriceCents !== undefined && credit.unitPriceCents < 0 ? -credit.unitPriceCents : 0;
  const scale = Math.max(included || meteredTotal, 1);
  const width = (cents: number) => `${Math.min(100, Math.round((cents / scale) * 100))}%`;
  return (
    <figure className="usage-chart" data-testid="usage-chart">
      <figcaption className="muted">Usage this period so far, and what the included credit covers</figcaption>
      <table className="usage-table">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Measured</th>
            <th scope="col">Cost</th>
            <th scope="col" aria-hidden="true" />
          </tr>
        </thead>
        <tbody>
          {metered.map((line) => (
            <tr key={line.title} data-testid={`usage-${line.title.toLowerCase().replaceAll(' ', '-')}`}>
              <th scope="row">{line.title}</th>
              <td>{line.description ?? line.quantity ?? ''}</td>
              <td>{formatMoney(line.amountCents, period.currency)}</td>
              <td aria-hidden="true" className="usage-bar-cell">
                <span className="usage-bar" style={{ width: width(line.amountCents) }} />
              </td>
            </tr>
          ))}
          <tr data-testid="usage-credit">
            <th scope="row">Included credit used</th>
            <td>{included ? `${formatMoney(creditUsed, period.currency)} of ${formatMoney(included, period.currency)}` : creditUsed === 0 && meteredTotal === 0 ? 'None yet' : `${formatMoney(creditUsed, period.currency)} of the credit`}</td>
            <td>{formatMoney(-creditUsed, period.currency)}</td>
            <td aria-hidden="true" className="usage-bar-cell">
              <span className="usage-bar usage-bar-credit" style={{ width: width(creditUsed) }} />
            </td>
          </tr>
          <tr>
            <th scope="row">Usage to pay</th>
            <td />
            <td data-testid="usage-total">{formatMoney(usage.totalCents, period.currency)}</td>
            <td aria-hidden="true" />
          </tr>
        </tbody>
      </table>
    </figure>
  );
}
