import { router } from '../../trpc/init';
import { emailConfig, setEmailConfig, setSmsConfig, smsConfig } from './config';
import { message, messages, testSend } from './messages';
import { getTemplate, resetTemplate, setTemplate, templates } from './templates';

/**
 * Messaging of a project: its email templates and delivery settings (the project config on the control
 * plane) and its courier log (the data plane). Members read (`backoffice.project.read`), writers edit
 * (`backoffice.project.write`).
 */
export const messagingRouter = router({
  templates,
  getTemplate,
  setTemplate,
  resetTemplate,
  messages,
  message,
  testSend,
  emailConfig,
  setEmailConfig,
  smsConfig,
  setSmsConfig,
});
