import type { FormEvent } from 'react';
import { collectFields, buildBody } from './form-body';
import type { SelfServiceFlow } from './flow-types';
import { FlowNode } from './FlowNodes';

export interface FlowFormProps {
  flow: SelfServiceFlow;
  /** Only nodes of these groups (plus 'default', which holds the CSRF token). All when omitted. */
  groups?: readonly string[];
  submitting: boolean;
  onSubmit: (body: Record<string, unknown>) => void;
  testId?: string;
}

/** The flow's own submit buttons are named 'method'; others (resend) do not need the form filled in. */
function isPrimarySubmit(submitter: HTMLButtonElement | HTMLInputElement | null): boolean {
  return !submitter || submitter.name === 'method';
}

/** A self-service flow's form, rendered generically from its UI nodes. */
export function FlowForm({ flow, groups, submitting, onSubmit, testId = 'flow-form' }: FlowFormProps) {
  const nodes = flow.ui.nodes.filter((n) => !groups || n.group === 'default' || groups.includes(n.group));

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | HTMLInputElement | null;
    // Required fields are checked in the browser first. A secondary button (e.g. "Resend code", which
    // carries the address itself) submits without them.
    if (isPrimarySubmit(submitter) && !event.currentTarget.checkValidity()) {
      event.currentTarget.reportValidity();
      return;
    }
    onSubmit(buildBody(collectFields(event.currentTarget, submitter)));
  };

  return (
    <form className="flow-form" onSubmit={handleSubmit} aria-busy={submitting} data-testid={testId} noValidate>
      <fieldset disabled={submitting} className="flow-fieldset">
        {nodes.map((node, index) => {
          const attrs = node.attributes;
          const key = attrs.node_type === 'input' ? `${node.group}-${attrs.name}-${index}` : `${node.type}-${index}`;
          return <FlowNode key={key} node={node} />;
        })}
      </fieldset>
    </form>
  );
}
