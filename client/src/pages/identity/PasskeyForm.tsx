import { useState, type FormEvent } from 'react';
import type { SelfServiceFlow, UiNode, UiNodeInputAttributes } from './flow-types';
import { UiMessages } from './FlowNodes';

/*
 * The browser's side of a flow's passkey nodes (Kratos' `passkey` group), as its webauthn.js does it: the button
 * that names a trigger (`oryPasskeyLogin`, `oryPasskeySettingsRegistration`) asks the authenticator with the
 * options the flow holds (`passkey_challenge`, `passkey_create_data`) and sends its answer as the flow's
 * `passkey_login` / `passkey_settings_register`; a `passkey_remove` button sends the key it names.
 */

type InputNode = UiNode & { attributes: UiNodeInputAttributes };

const isInput = (n: UiNode): n is InputNode => n.attributes.node_type === 'input';
const inputs = (flow: SelfServiceFlow) => flow.ui.nodes.filter(isInput);
const valueOf = (flow: SelfServiceFlow, name: string): string | undefined => {
  const value = inputs(flow).find((n) => n.attributes.name === name)?.attributes.value as unknown;
  return typeof value === 'string' ? value : undefined;
};

/** The ceremonies this page runs: a sign-in, and a new key in settings (a passkey-only sign-up is not offered). */
const TRIGGERS = new Set<string>(['oryPasskeyLogin', 'oryPasskeySettingsRegistration']);

/** Whether the flow offers a passkey ceremony this page runs. */
export const offersPasskey = (flow: SelfServiceFlow): boolean => inputs(flow).some((n) => n.group === 'passkey' && TRIGGERS.has(String(n.attributes.onclickTrigger ?? '')));

const labelOf = (node: UiNode): string => node.meta.label?.text ?? (isInput(node) ? node.attributes.name : '');

/** What the trigger's ceremony answers, as the body fields the flow expects; throws when the browser refused. */
async function ceremony(flow: SelfServiceFlow, trigger: string): Promise<Record<string, string>> {
  if (trigger === 'oryPasskeyLogin') {
    const data = JSON.parse(valueOf(flow, 'passkey_challenge') ?? '{}') as { publicKey: PublicKeyCredentialRequestOptionsJSON };
    const credential = (await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(data.publicKey) })) as PublicKeyCredential | null;
    if (!credential) throw new Error('no passkey was chosen');
    return { passkey_login: JSON.stringify(credential.toJSON()) };
  }
  if (trigger === 'oryPasskeySettingsRegistration') {
    const data = JSON.parse(valueOf(flow, 'passkey_create_data') ?? '{}') as { publicKey: PublicKeyCredentialCreationOptionsJSON };
    const credential = (await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(data.publicKey) })) as PublicKeyCredential | null;
    if (!credential) throw new Error('no passkey was made');
    return { passkey_settings_register: JSON.stringify(credential.toJSON()) };
  }
  throw new Error(`this page cannot run ${trigger}`);
}

export interface PasskeyFormProps {
  flow: SelfServiceFlow;
  submitting: boolean;
  onSubmit: (body: Record<string, unknown>) => void;
  testId: string;
}

/** The flow's passkey nodes as buttons: the ceremony's trigger, and in settings a remove button per key. */
export function PasskeyForm({ flow, submitting, onSubmit, testId }: PasskeyFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const csrf = valueOf(flow, 'csrf_token') ?? '';
  const passkeyNodes = inputs(flow).filter((n) => n.group === 'passkey');
  const buttons = passkeyNodes.filter((n) => (n.attributes.type === 'submit' || n.attributes.type === 'button') && (!n.attributes.onclickTrigger || TRIGGERS.has(String(n.attributes.onclickTrigger))));

  const run = async (trigger: string) => {
    setFailure(null);
    setAsking(true);
    try {
      const answer = await ceremony(flow, trigger);
      onSubmit({ csrf_token: csrf, method: 'passkey', ...answer });
    } catch (error) {
      // The browser's own refusal (cancelled, timed out, no authenticator) is no error of the flow.
      setFailure(`Your browser did not use a passkey (${error instanceof Error ? error.message : 'refused'}). Try again, or use another way.`);
    } finally {
      setAsking(false);
    }
  };

  const remove = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.name === 'passkey_remove') onSubmit({ csrf_token: csrf, method: 'passkey', passkey_remove: submitter.value });
  };

  return (
    <form className="flow-form" onSubmit={remove} aria-busy={submitting || asking} data-testid={testId} noValidate>
      <fieldset disabled={submitting || asking} className="flow-fieldset">
        {buttons.map((node, index) => {
          const attrs = node.attributes;
          if (attrs.onclickTrigger) {
            return (
              <button key={`${attrs.name}-${index}`} type="button" className="btn btn-secondary btn-block" onClick={() => void run(String(attrs.onclickTrigger))} data-testid={`passkey-${attrs.name}`}>
                {labelOf(node)}
              </button>
            );
          }
          const value = typeof attrs.value === 'string' ? attrs.value : '';
          return (
            <button key={`${attrs.name}-${value}-${index}`} type="submit" name={attrs.name} value={value} disabled={attrs.disabled} className="btn btn-ghost btn-block" data-testid={`passkey-remove-${value}`}>
              {labelOf(node)}
            </button>
          );
        })}
      </fieldset>
      {failure && (
        <p className="field-error" role="alert" data-testid="passkey-failure">
          {failure}
        </p>
      )}
      <UiMessages messages={passkeyNodes.flatMap((n) => n.messages)} testId={`${testId}-messages`} />
    </form>
  );
}
