import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { formatDateTime } from '../../../../shared/domain/format';
import { eventStreamCreateInput, type DeliveryAttempt } from '../../../../shared/schemas/event-streams';
import { ActionForm, useActionForm } from '../../components/ActionForm';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { CopyValue } from '../../components/CopyButton';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { Select, TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

const createSchema = eventStreamCreateInput;
type Stream = { id: string; type: string; status: 'active' | 'paused'; https_endpoint?: unknown; topic_arn?: string; role_arn?: string };
const destinationOf = (s: Stream): string => (typeof s.https_endpoint === 'string' ? s.https_endpoint : (s.topic_arn ?? s.id));

/** Changes where a stream delivers: its endpoint, or its SNS topic and role; its type, status, secret and log stay. */
function EditStreamDialog({ projectId, stream, onClose }: { projectId: string; stream: Stream; onClose: () => void }) {
  const set = trpc.eventStreams.set.useMutation();
  const https = stream.type === 'https';
  const action = useActionForm({
    schema: createSchema,
    // Only the fields of the stream's type: an empty field of the other type would not pass its own check.
    defaultValues: https
      ? { projectId, type: 'https' as const, https_endpoint: typeof stream.https_endpoint === 'string' ? stream.https_endpoint : '' }
      : { projectId, type: 'sns' as const, topic_arn: stream.topic_arn ?? '', role_arn: stream.role_arn ?? '' },
    onSubmit: (values) =>
      set.mutateAsync(
        https
          ? { projectId, streamId: stream.id, https_endpoint: values.https_endpoint ?? '' }
          : { projectId, streamId: stream.id, topic_arn: values.topic_arn ?? '', role_arn: values.role_arn ?? '' },
      ),
    onDone: () => {
      toast.success('The event stream was saved.');
      onClose();
    },
    errorFallback: 'The event stream could not be saved.',
  });
  const errors = action.form.formState.errors;
  return (
    <Dialog
      open
      title="Edit event stream"
      description="Events go to the new destination from now on; the signing secret and the delivery log stay."
      onClose={onClose}
      testId="event-stream-edit-dialog"
      footer={
        <Button type="submit" variant="primary" form={action.id} busy={action.busy} data-testid="event-stream-save">
          Save
        </Button>
      }
    >
      <ActionForm action={action} testId="event-stream-edit-form">
        {https ? (
          <TextField label="Endpoint" hint="Locally, only endpoints on this machine (localhost) receive events." error={errors.https_endpoint?.message} data-testid="event-stream-edit-endpoint" {...action.form.register('https_endpoint')} />
        ) : (
          <>
            <TextField label="SNS topic ARN" error={errors.topic_arn?.message} data-testid="event-stream-edit-topic" {...action.form.register('topic_arn')} />
            <TextField label="IAM role ARN" error={errors.role_arn?.message} data-testid="event-stream-edit-role" {...action.form.register('role_arn')} />
          </>
        )}
      </ActionForm>
    </Dialog>
  );
}

/** /projects/{project}/developers: what developers need of this project, and its event streams with their delivery log. */
export default function DevelopersPage() {
  const project = useProject();
  const projectId = project.id;
  const streams = trpc.eventStreams.list.useQuery({ projectId });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [doomed, setDoomed] = useState<Stream | null>(null);
  const [editing, setEditing] = useState<Stream | null>(null);
  const create = trpc.eventStreams.create.useMutation();
  const set = trpc.eventStreams.set.useMutation();
  const remove = trpc.eventStreams.delete.useMutation();
  const sendTest = trpc.eventStreams.sendTest.useMutation();

  const action = useActionForm({
    schema: createSchema,
    defaultValues: { projectId, type: 'https' as const, https_endpoint: '' },
    onSubmit: (values) => create.mutateAsync(values),
    onDone: (created) => {
      setCreating(false);
      setSecret(created.secret);
      setShown(created.id);
    },
    errorFallback: 'The event stream could not be created.',
  });
  const type = action.form.watch('type');
  const errors = action.form.formState.errors;

  const test = async (stream: Stream) => {
    setShown(stream.id);
    try {
      const attempt = await sendTest.mutateAsync({ projectId, streamId: stream.id });
      if (attempt.status === 'success') toast.success(`The test event was delivered (${attempt.response_code}).`);
      else toast.error(`The test event was not delivered: ${attempt.error ?? 'the endpoint refused it'}.`);
    } catch (error) {
      toast.error(errorText(error) ?? 'The test event could not be sent.');
    }
  };

  return (
    <div className="page" data-testid="developers-page">
      <PageHeader title="Developers" description="The endpoints, keys and event streams developers need to build on this project." />
      <Card title="Project endpoints" testId="developers-endpoints">
        <CopyValue label="Project ID" value={projectId} testId="developers-project-id" />
        <p className="card-text">
          Call the project's APIs with an <Link href={ROUTES.projectAdvanced.build({ project: projectId })}>API key</Link>; the events it records are in{' '}
          <Link href={ROUTES.activityEvents.build({ project: projectId })}>Events</Link>.
        </p>
      </Card>
      <Card
        title="Event streams"
        testId="event-streams-card"
        actions={
          <Button variant="primary" onClick={() => setCreating(true)} data-testid="event-stream-new">
            New event stream
          </Button>
        }
      >
        <p className="card-text">Every event of this project is sent to each active stream as a signed POST; a failed delivery is retried with increasing waits.</p>
        <QueryView
          query={streams}
          skeleton="table"
          errorTitle="The event streams could not be loaded"
          isEmpty={(list) => list.length === 0}
          empty={{ title: 'No event streams yet', description: 'Create a stream with your endpoint to receive every sign-up, sign-in and token as it happens.', testId: 'event-streams-empty' }}
        >
          {(list) => (
            <Table
              caption="Event streams"
              testId="event-streams-table"
              rows={list}
              rowKey={(s) => s.id}
              columns={[
                {
                  key: 'target',
                  header: 'Destination',
                  className: 'col-name',
                  render: (s) => (
                    <button type="button" className="link-button" onClick={() => setShown(s.id)} data-testid="event-stream-open">
                      {destinationOf(s)}
                    </button>
                  ),
                },
                { key: 'type', header: 'Type', render: (s) => (s.type === 'sns' ? 'Amazon SNS (delivered on Ory Network only)' : 'HTTPS') },
                { key: 'status', header: 'Status', render: (s) => <span className={`badge ${s.status === 'active' ? 'badge-prod' : ''}`} data-testid="event-stream-status">{s.status === 'active' ? 'Active' : 'Paused'}</span> },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (s) => (
                    <div className="row-actions">
                      {s.type === 'https' && (
                        <Button onClick={() => void test(s)} busy={sendTest.isPending && sendTest.variables?.streamId === s.id} data-testid="event-stream-test">
                          Send test
                        </Button>
                      )}
                      <Button
                        onClick={() => set.mutate({ projectId, streamId: s.id, status: s.status === 'active' ? 'paused' : 'active' }, { onError: (e) => toast.error(errorText(e) ?? 'The stream could not be changed.') })}
                        data-testid="event-stream-toggle"
                      >
                        {s.status === 'active' ? 'Pause' : 'Resume'}
                      </Button>
                      <Button onClick={() => setEditing(s)} data-testid="event-stream-edit">
                        Edit<span className="sr-only"> {destinationOf(s)}</span>
                      </Button>
                      <Button variant="danger" onClick={() => setDoomed(s)} data-testid="event-stream-delete">
                        Delete
                      </Button>
                    </div>
                  ),
                },
              ]}
            />
          )}
        </QueryView>
      </Card>
      {shown && <DeliveryLog projectId={projectId} streamId={shown} />}

      <Dialog
        open={creating}
        title="New event stream"
        onClose={() => {
          setCreating(false);
          action.reset();
        }}
        testId="event-stream-dialog"
        footer={
          <Button type="submit" variant="primary" form={action.id} busy={action.busy} data-testid="event-stream-create">
            Create stream
          </Button>
        }
      >
        <ActionForm action={action} testId="event-stream-form">
          <Select label="Type" options={[{ value: 'https', label: 'HTTPS endpoint' }, { value: 'sns', label: 'Amazon SNS topic' }]} data-testid="event-stream-type" {...action.form.register('type')} />
          {type === 'https' ? (
            <TextField label="Endpoint" placeholder="https://example.com/hooks/ory" hint="Locally, only endpoints on this machine (localhost) receive events." error={errors.https_endpoint?.message} data-testid="event-stream-endpoint" {...action.form.register('https_endpoint')} />
          ) : (
            <>
              <TextField label="SNS topic ARN" placeholder="arn:aws:sns:us-east-1:123456789012:ory-events" error={errors.topic_arn?.message} data-testid="event-stream-topic" {...action.form.register('topic_arn')} />
              <TextField label="IAM role ARN" placeholder="arn:aws:iam::123456789012:role/ory-events" error={errors.role_arn?.message} data-testid="event-stream-role" {...action.form.register('role_arn')} />
            </>
          )}
        </ActionForm>
      </Dialog>

      {editing && <EditStreamDialog projectId={projectId} stream={editing} onClose={() => setEditing(null)} />}

      <Dialog
        open={secret !== null}
        title="Signing secret"
        description="Requests are signed with this secret (HMAC-SHA256 of the timestamp header, a dot and the body, in the ory-event-signature header). It is shown this once: copy it now."
        onClose={() => setSecret(null)}
        testId="event-stream-secret-dialog"
        footer={
          <Button variant="primary" onClick={() => setSecret(null)} data-testid="event-stream-secret-done">
            I have copied it
          </Button>
        }
      >
        {secret && <CopyValue label="Secret" value={secret} testId="event-stream-secret" />}
      </Dialog>

      <ConfirmDialog
        open={doomed !== null}
        title="Delete event stream"
        message={`Events are no longer sent to ${doomed ? destinationOf(doomed) : 'this stream'}, and its delivery log is deleted.`}
        confirmLabel="Delete stream"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'The stream could not be deleted.') : undefined}
        onConfirm={() =>
          doomed &&
          remove.mutate(
            { projectId, streamId: doomed.id },
            {
              onSuccess: () => {
                if (shown === doomed.id) setShown(null);
                setDoomed(null);
              },
            },
          )
        }
        onClose={() => {
          remove.reset();
          setDoomed(null);
        }}
        testId="event-stream-delete-dialog"
      />
    </div>
  );
}

function DeliveryLog({ projectId, streamId }: { projectId: string; streamId: string }) {
  const [tokens, setTokens] = useState<string[]>([]);
  const pageToken = tokens.at(-1);
  const log = trpc.eventStreams.deliveries.useQuery({ projectId, streamId, ...(pageToken ? { pageToken } : {}) }, { placeholderData: (previous) => previous, refetchInterval: 5000 });
  const replay = trpc.eventStreams.replay.useMutation();
  const again = (a: DeliveryAttempt) =>
    replay.mutate(
      { projectId, streamId, deliveryId: a.delivery_id },
      { onSuccess: () => toast.success('The event is queued to be sent again.'), onError: (e) => toast.error(errorText(e) ?? 'The event could not be replayed.') },
    );
  return (
    <Card title="Delivery log" testId="event-stream-log">
      <QueryView
        query={log}
        skeleton="table"
        errorTitle="The delivery log could not be loaded"
        isEmpty={(answer) => answer.attempts.length === 0}
        empty={{ title: 'Nothing delivered yet', description: 'Send a test event, or sign in on your project: each delivery attempt is listed here.', testId: 'event-stream-log-empty' }}
      >
        {(answer) => (
          <>
            <Table
              caption="Delivery attempts"
              testId="event-stream-log-table"
              rows={answer.attempts}
              rowKey={(a) => a.id}
              columns={[
                { key: 'event', header: 'Event', className: 'col-name', render: (a) => a.event_type },
                { key: 'attempt', header: 'Attempt', render: (a) => a.attempt },
                { key: 'status', header: 'Status', render: (a) => <span className={`badge ${a.status === 'success' ? 'badge-prod' : 'badge-abandoned'}`} data-testid="attempt-status">{a.status === 'success' ? 'Success' : 'Failed'}</span> },
                { key: 'code', header: 'Response', render: (a) => (a.response_code === null ? (a.error ?? '—') : a.response_code) },
                { key: 'latency', header: 'Latency', render: (a) => `${a.latency_ms} ms` },
                { key: 'at', header: 'Time', render: (a) => formatDateTime(a.at) },
                {
                  key: 'replay',
                  header: 'Replay',
                  render: (a) =>
                    a.delivery_status === 'pending' ? (
                      'Retrying'
                    ) : (
                      <Button onClick={() => again(a)} busy={replay.isPending && replay.variables?.deliveryId === a.delivery_id} data-testid="attempt-replay">
                        Replay
                      </Button>
                    ),
                },
              ]}
            />
            <div className="pager">
              <Button disabled={tokens.length === 0} onClick={() => setTokens(tokens.slice(0, -1))} data-testid="log-newer">
                Newer
              </Button>
              <Button disabled={!answer.nextPageToken} onClick={() => answer.nextPageToken && setTokens([...tokens, answer.nextPageToken])} data-testid="log-older">
                Older
              </Button>
            </div>
          </>
        )}
      </QueryView>
    </Card>
  );
}
