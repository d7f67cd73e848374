import { formatMoney } from '../../../../shared/domain/format';
import { Card } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { usePagedList } from '../../lib/use-paged-list';
import { trpc } from '../../trpc';
import type { TeamScope } from '../team/scope';
import { periodLabel } from './period-label';

const STATUS: Record<string, string> = { draft: 'Estimate', paid: 'Paid', open: 'Due', uncollectible: 'Uncollectible', void: 'Void' };

/** The invoices of a workspace or project, a billing period per row, newest first; paged by token, keeping its place. */
export function InvoiceList({ scope }: { scope: TeamScope }) {
  const { pageToken, pager } = usePagedList('invoicePages');
  const invoices = trpc.billing.invoices.useQuery({ ...scope, ...(pageToken ? { pageToken } : {}) }, { placeholderData: (previous) => previous });
  return (
    <Card title="Invoices" testId="invoices-card">
      <QueryView
        query={invoices}
        skeleton="table"
        errorTitle="The invoices could not be loaded"
        isEmpty={(answer) => answer.periods.length === 0}
        empty={{ title: 'No invoices yet', description: 'Invoices appear here for each billing period once a paid plan starts.' }}
      >
        {(answer) => (
          <>
            <ul className="invoice-list" data-testid="invoice-list">
              {answer.periods.map((period) => (
                <li key={period.start} className="invoice-period" data-testid="invoice-period">
                  <details>
                    <summary>
                      <span className="invoice-toggle" aria-hidden="true" />
                      <span className="invoice-dates">{periodLabel(period)}</span>
                      <span className="invoice-plan">{period.invoices.find((i) => i.planName)?.planName ?? ''}</span>
                      <span className="invoice-total" data-testid="invoice-total">
                        {formatMoney(period.totalCents, period.currency)}
                      </span>
                      <span className={`invoice-status invoice-status-${period.open ? 'draft' : 'closed'}`} data-testid="invoice-status">
                        {period.open ? 'Estimate' : (STATUS[period.invoices[0]?.status ?? ''] ?? period.invoices[0]?.status)}
                      </span>
                    </summary>
                    {period.invoices.map((invoice) => (
                      <table key={invoice.id} className="invoice-lines" data-testid="invoice-lines">
                        <caption>
                          {invoice.title}: {formatMoney(invoice.totalCents, period.currency)}
                        </caption>
                        <tbody>
                          {invoice.lines.map((line) => (
                            <tr key={line.title}>
                              <th scope="row">{line.title}</th>
                              <td>{line.description ?? (line.quantity !== null ? `× ${line.quantity}` : '')}</td>
                              <td className="invoice-amount">{formatMoney(line.amountCents, period.currency)}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    ))}
                  </details>
                </li>
              ))}
            </ul>
            {pager({
              label: 'Invoice pages',
              nextToken: answer.nextPageToken,
              busy: invoices.isFetching && invoices.isPlaceholderData,
              previousText: 'Newer',
              nextText: 'Older',
              testId: 'invoices',
            })}
          </>
        )}
      </QueryView>
    </Card>
  );
}
