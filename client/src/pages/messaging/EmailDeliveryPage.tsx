import { messageTemplateLabel } from '../../../../shared/domain/email-templates';
import { formatDateTime } from '../../../../shared/domain/format';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { courierMessageStatusSchema, type CourierMessageStatus } from '../../../../shared/schemas/messaging';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { Select, TextField } from '../../components/TextField';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { usePagedList } from '../../lib/use-paged-list';
import { useUrlState } from '../../lib/use-url-state';
import { STATUS_BADGE, STATUS_LABELS } from './preview';

const when = (iso: string) => formatDateTime(iso);
const STATUS_OPTIONS = [{ value: '', label: 'Any status' }, ...courierMessageStatusSchema.options.map((s) => ({ value: s, label: STATUS_LABELS[s] }))];

export function StatusBadge({ status }: { status: CourierMessageStatus }) {
  return (
    <span className={`badge ${STATUS_BADGE[status]}`} data-testid="message-status">
      {STATUS_LABELS[status]}
    </span>
  );
}

/** /projects/{project}/email-delivery: every message the project sent, filtered by status and recipient; filters and page in the URL. */
export default function EmailDeliveryPage() {
  const project = useProject();
  const projectId = project.id;
  const [url, setUrl] = useUrlState(['status', 'recipient'] as const);
  const { pageToken, firstPage, pager } = usePagedList();
  const [typed, setTyped] = useState(url.recipient);
  useEffect(() => setTyped(url.recipient), [url.recipient]);
  const status = courierMessageStatusSchema.safeParse(url.status).data;
  const list = trpc.messaging.messages.useQuery(
    { projectId, ...(status ? { status } : {}), ...(url.recipient ? { recipient: url.recipient } : {}), ...(pageToken ? { pageToken } : {}) },
    // Queued and processing messages change state on their own: look again while any is on its way.
    { placeholderData: (previous) => previous, refetchInterval: (q) => (q.state.data?.messages.some((m) => m.status === 'queued' || m.status === 'processing') ? 2000 : false) },
  );
  const filtered = Boolean(status || url.recipient);

  const applyRecipient = (event: FormEvent) => {
    event.preventDefault();
    setUrl({ recipient: typed.trim(), ...firstPage });
  };

  return (
    <div className="page" data-testid="email-delivery-page">
      <PageHeader title="Delivery" description="The emails and text messages sent to your users, and whether each one was delivered." />
      <Card testId="email-delivery-card">
        <form className="filters" role="search" onSubmit={applyRecipient}>
          <Select label="Status" options={STATUS_OPTIONS} value={status ?? ''} onChange={(e) => setUrl({ status: e.target.value, ...firstPage })} data-testid="delivery-status-filter" />
          <TextField label="Recipient" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="ada@example.com" data-testid="delivery-recipient-filter" />
          <Button type="submit" data-testid="delivery-filter-apply">
            Filter
          </Button>
        </form>
        <QueryView
          query={list}
          skeleton="table"
          errorTitle="The messages could not be loaded"
          isEmpty={(answer) => answer.messages.length === 0}
          empty={
            filtered
              ? { title: 'No message matches', description: 'No message has this status or recipient. Clear a filter to see more.', testId: 'delivery-no-match' }
              : { title: 'No messages yet', description: 'Recovery, verification and code messages appear here as your users receive them.', testId: 'delivery-empty' }
          }
        >
          {(answer) => (
            <>
              <Table
                caption="Messages"
                testId="delivery-table"
                rows={answer.messages}
                rowKey={(m) => m.id}
                columns={[
                  {
                    key: 'recipient',
                    header: 'Recipient',
                    className: 'col-name',
                    render: (m) => (
                      <Link href={ROUTES.emailMessage.build({ project: projectId, id: m.id })} className="link" data-testid="delivery-message-link">
                        {m.recipient}
                      </Link>
                    ),
                  },
                  { key: 'subject', header: 'Subject', render: (m) => m.subject || (m.type === 'phone' ? 'Text message' : '—') },
                  { key: 'template', header: 'Template', render: (m) => messageTemplateLabel(m.template_type) },
                  { key: 'status', header: 'Status', render: (m) => <StatusBadge status={m.status} /> },
                  { key: 'attempts', header: 'Attempts', render: (m) => m.send_count },
                  { key: 'created', header: 'Created', render: (m) => when(m.created_at) },
                ]}
              />
              {pager({ label: 'Message pages', nextToken: answer.nextPageToken, busy: list.isFetching && list.isPlaceholderData, testId: 'delivery' })}
            </>
          )}
        </QueryView>
      </Card>
    </div>
  );
}
