import { MESSAGES } from '../../../../shared/messages';
import { StatusPage } from './StatusPage';

export default function ServerErrorPage() {
  return <StatusPage code="500" title="Server error" text={MESSAGES.genericFallback} testId="server-error-page" />;
}
