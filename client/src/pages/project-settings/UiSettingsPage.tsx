import { uiForm, type ProjectConfig } from '../../../../shared/schemas/project-config';
import { trpc } from '../../trpc';
import { ConfigSectionPage, type ConfigField } from '../authentication/ConfigSectionForm';

type Values = ProjectConfig['ui'];

const page = (key: keyof Values, label: string): ConfigField<Values> => ({
  key,
  kind: 'text',
  label,
  placeholder: 'Hosted by the project',
  hint: 'Leave empty for the page the project hosts itself.',
});

const FIELDS: readonly ConfigField<Values>[] = [
  page('login', 'Sign-in page'),
  page('registration', 'Sign-up page'),
  page('recovery', 'Recovery page'),
  page('verification', 'Verification page'),
  page('settings', 'Account settings page'),
  page('error', 'Error page'),
];

/** /projects/{project}/ui: the pages flows send browsers to, when the project brings its own. */
export default function UiSettingsPage() {
  const save = trpc.projectConfig.setUi.useMutation();
  return (
    <ConfigSectionPage<Values>
      testId="ui-settings"
      title="User interface"
      description="The pages of your own app that show sign-in, sign-up and the other flows. Flows send browsers there with the flow's id."
      schema={uiForm}
      fields={FIELDS}
      read={(c) => c.ui}
      save={(projectId, changes, revisionId) => save.mutateAsync({ projectId, revisionId, ...changes })}
      submitLabel="Save pages"
      savedMessage="User interface pages saved"
    />
  );
}
