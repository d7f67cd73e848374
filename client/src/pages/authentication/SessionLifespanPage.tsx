import { sessionLifespanForm, type ProjectConfig } from '../../../../shared/schemas/project-config';
import { trpc } from '../../trpc';
import { ConfigSectionPage, type ConfigField } from './ConfigSectionForm';

type Values = Pick<ProjectConfig['sessions'], 'lifespan' | 'earliest_possible_extend' | 'whoami_required_aal'>;

const FIELDS: readonly ConfigField<Values>[] = [
  { key: 'lifespan', kind: 'text', label: 'Session lifespan', placeholder: '24h', hint: 'How long a sign-in lasts. Write a duration such as 1h or 720h; leave empty for the default, 24h.' },
  { key: 'earliest_possible_extend', kind: 'text', label: 'Earliest possible extension', placeholder: 'Any time', hint: 'How close to its end a session may be extended. Leave empty to allow it any time.' },
  {
    key: 'whoami_required_aal',
    kind: 'select',
    label: 'Assurance level the session check requires',
    hint: 'Highest available: a user with a second factor must have used it. aal1: one factor is enough.',
    options: [
      { value: 'highest_available', label: 'Highest available' },
      { value: 'aal1', label: 'aal1 (one factor)' },
    ],
  },
];

/** /projects/{project}/authentication/sessions: how long a sign-in lasts. */
export default function SessionLifespanPage() {
  const save = trpc.projectConfig.setSessions.useMutation();
  return (
    <ConfigSectionPage<Values>
      testId="session-lifespan"
      title="Session lifespan"
      description="How long a sign-in lasts before users must sign in again. A change holds for sessions issued from now on."
      schema={sessionLifespanForm}
      fields={FIELDS}
      read={(c) => ({ lifespan: c.sessions.lifespan, earliest_possible_extend: c.sessions.earliest_possible_extend, whoami_required_aal: c.sessions.whoami_required_aal })}
      save={(projectId, changes, revisionId) => save.mutateAsync({ projectId, revisionId, ...changes })}
      submitLabel="Save session lifespan"
      savedMessage="Session lifespan saved"
    />
  );
}
