import { messageTemplateLabel } from '../../../../shared/domain/email-templates';
import { formatDateTime } from '../../../../shared/domain/format';
import { Link, useParams } from 'wouter';
import type { CourierDispatch } from '../../../../shared/schemas/messaging';
import { Card, PageHeader } from '../../components/Card';
import { CopyValue } from '../../components/CopyButton';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { StatusBadge } from './EmailDeliveryPage';

const when = (iso: string) => formatDateTime(iso);
const errorOf = (error: Record<string, unknown> | undefined) =>
  error ? String(error.message ?? error.reason ?? JSON.stringify(error)) : '—';

/** /projects/{project}/email-delivery/{id}: one message, its rendered body and every delivery attempt. */
export default function EmailMessagePage() {
  const project = useProject();
  const projectId = project.id;
  const { id = '' } = useParams<{ id: string }>();
  const message = trpc.messaging.message.useQuery(
    { projectId, id },
    { refetchInterval: (q) => (q.state.data && (q.state.data.status === 'queued' || q.state.data.status === 'processing') ? 2000 : false) },
  );

  return (
    <div className="page" data-testid="email-message-page">
      <QueryView query={message} skeleton="details" errorTitle="The message could not be loaded">
        {(m) => {
          const dispatches = (m.dispatches ?? []) as CourierDispatch[];
          return (
          <>
            <PageHeader title={m.subject || 'Text message'} description={<>To {m.recipient}</>} actions={<Link href={ROUTES.emailDelivery.build({ project: projectId })} className="link">Back to delivery</Link>} />
            <Card title="Message" testId="message-details">
              <dl className="details">
                <div className="detail">
                  <dt>Status</dt>
                  <dd>
                    <StatusBadge status={m.status} />
                  </dd>
                </div>
                <div className="detail">
                  <dt>Recipient</dt>
                  <dd data-testid="message-recipient">{m.recipient}</dd>
                </div>
                <div className="detail">
                  <dt>Channel</dt>
                  <dd>{m.type === 'phone' ? 'SMS' : 'Email'}</dd>
                </div>
                <div className="detail">
                  <dt>Template</dt>
                  <dd>
                    <span data-testid="message-template">{messageTemplateLabel(m.template_type)}</span>
                  </dd>
                </div>
                <div className="detail">
                  <dt>Attempts</dt>
                  <dd data-testid="message-send-count">{m.send_count}</dd>
                </div>
                <div className="detail">
                  <dt>Created</dt>
                  <dd>{when(m.created_at)}</dd>
                </div>
                <div className="detail">
                  <dt>Message ID</dt>
                  <dd>
                    <CopyValue value={m.id} label="Message ID" />
                  </dd>
                </div>
              </dl>
            </Card>
            <Card title="Body" testId="message-body-card">
              <pre className="preview-text" data-testid="message-body">
                {m.body}
              </pre>
            </Card>
            <Card title="Delivery attempts" testId="message-dispatches">
              {dispatches.length === 0 ? (
                <p className="card-text">Not tried yet: the message is waiting in the queue.</p>
              ) : (
                <Table
                  caption="Delivery attempts"
                  testId="dispatches-table"
                  rows={dispatches}
                  rowKey={(d) => d.id}
                  columns={[
                    { key: 'when', header: 'When', render: (d) => when(d.created_at) },
                    {
                      key: 'status',
                      header: 'Result',
                      render: (d) => <span className={`badge ${d.status === 'success' ? 'badge-prod' : 'badge-abandoned'}`}>{d.status === 'success' ? 'Delivered' : 'Failed'}</span>,
                    },
                    { key: 'error', header: 'Error', render: (d) => errorOf(d.error) },
                  ]}
                />
              )}
            </Card>
          </>
          );
        }}
      </QueryView>
    </div>
  );
}
