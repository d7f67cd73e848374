import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { SmsChannelForm } from './SmsChannelForm';
import { TestSendCard } from './TestSendCard';

/** /projects/{project}/sms-configuration: the HTTP endpoint that delivers the project's text messages; a test send. */
export default function SmsConfigurationPage() {
  const project = useProject();
  const config = trpc.messaging.smsConfig.useQuery({ projectId: project.id });
  return (
    <div className="page page-narrow" data-testid="sms-configuration-page">
      <PageHeader title="SMS configuration" description="The provider that delivers codes to your users’ phones. Without one, text messages go to the default sender (the local mailbox on a local stack)." />
      <Card title="Provider">
        <QueryView query={config} skeleton="card" errorTitle="The SMS settings could not be loaded">
          {(c) => <SmsChannelForm projectId={project.id} config={c} />}
        </QueryView>
      </Card>
      <TestSendCard projectId={project.id} channel="sms" />
    </div>
  );
}
