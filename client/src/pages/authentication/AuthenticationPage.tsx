import { authenticationForm, type ProjectConfig } from '../../../../shared/schemas/project-config';
import { trpc } from '../../trpc';
import { ConfigSectionPage, type ConfigField } from './ConfigSectionForm';

type Values = ProjectConfig['authentication'];

const FIELDS: readonly ConfigField<Values>[] = [
  { key: 'registration_enabled', kind: 'checkbox', label: 'Let people sign up', hint: 'Off: the sign-up flow is refused and only identities you create or import can sign in.' },
  { key: 'password_enabled', kind: 'checkbox', label: 'Sign in with a password', hint: 'Off: sign-up, sign-in and settings no longer offer a password.' },
  { key: 'profile_enabled', kind: 'checkbox', label: 'Let users edit their profile', hint: 'Off: the settings flow no longer offers to change traits such as the email address.' },
  { key: 'min_password_length', kind: 'number', label: 'Minimum password length', hint: 'From 6 to 72 characters. Default 8.' },
  { key: 'identifier_similarity_check_enabled', kind: 'checkbox', label: 'Refuse passwords similar to the identifier', hint: 'A password close to the email address or username is refused.' },
  { key: 'haveibeenpwned_enabled', kind: 'checkbox', label: 'Refuse passwords found in data breaches', hint: 'A password known from breaches is refused.' },
];

/** /projects/{project}/authentication: sign-in methods, sign-up and the password policy. */
export default function AuthenticationPage() {
  const save = trpc.projectConfig.setAuthentication.useMutation();
  return (
    <ConfigSectionPage<Values>
      testId="authentication"
      title="Sign-in methods"
      description="How users of this project sign up and sign in. A change holds for the next flow a user starts."
      schema={authenticationForm}
      fields={FIELDS}
      read={(c) => c.authentication}
      save={(projectId, changes, revisionId) => save.mutateAsync({ projectId, revisionId, ...changes })}
      submitLabel="Save sign-in methods"
      savedMessage="Sign-in methods saved"
      confirm={(changes) =>
        changes.registration_enabled === false
          ? { title: 'Turn sign-up off?', message: 'New users can no longer create an account; only identities you create or import can sign in.', confirmLabel: 'Turn sign-up off' }
          : undefined
      }
    />
  );
}
