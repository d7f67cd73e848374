import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { messageTemplateLabel, TEST_EVENT_KINDS, type TestEventKind } from '../../../../shared/domain/email-templates';
import { testSendInput } from '../../../../shared/schemas/messaging';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Select, TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { trpc } from '../../trpc';

/** Each kind named as the templates page names its template: "Recovery code (known address)". */
const KIND_OPTIONS = TEST_EVENT_KINDS.map((k) => ({ value: k, label: messageTemplateLabel(k) }));

/** Sends one message of a test-event kind through the project's own templates and delivery settings. */
export function TestSendCard({ projectId, channel }: { projectId: string; channel: 'email' | 'sms' }) {
  const [kind, setKind] = useState<TestEventKind>(channel === 'sms' ? 'login_code_valid' : 'recovery_code_valid');
  const [recipient, setRecipient] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const send = trpc.messaging.testSend.useMutation();
  const [sentId, setSentId] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending) return;
    const parsed = testSendInput.safeParse({ projectId, kind, recipient, channel });
    if (!parsed.success) {
      setFieldError(parsed.error.issues.find((i) => i.path[0] === 'recipient')?.message ?? parsed.error.issues[0]?.message);
      return;
    }
    setFieldError(undefined);
    send.mutate(parsed.data, {
      onSuccess: (message) => {
        setSentId(message.id);
        toast.success(channel === 'sms' ? 'Test message queued' : 'Test email queued');
      },
      onError: (err) => setFieldError(errorText(err) ?? 'The test message could not be sent.'),
    });
  };

  return (
    <Card title={channel === 'sms' ? 'Send a test SMS' : 'Send a test email'} testId="test-send-card">
      <p className="card-text">It is rendered with this project’s template and sample values, and delivered with the settings saved above.</p>
      <form className="form" onSubmit={submit} noValidate data-testid="test-send-form">
        <Select label="Message" options={KIND_OPTIONS} value={kind} onChange={(e) => setKind(e.target.value as TestEventKind)} data-testid="test-send-kind" />
        <TextField
          label={channel === 'sms' ? 'Phone number' : 'Email address'}
          type={channel === 'sms' ? 'tel' : 'email'}
          value={recipient}
          onChange={(e) => setRecipient(e.target.value)}
          error={fieldError}
          placeholder={channel === 'sms' ? '+4915112345678' : 'ada@example.com'}
          data-testid="test-send-recipient"
        />
        <div className="form-actions form-actions-start">
          <Button type="submit" variant="primary" busy={send.isPending} data-testid="test-send-submit">
            Send test
          </Button>
          {sentId && (
            <Link href={ROUTES.emailMessage.build({ project: projectId, id: sentId })} className="link" data-testid="test-send-result">
              See it in the delivery log
            </Link>
          )}
        </div>
      </form>
    </Card>
  );
}
