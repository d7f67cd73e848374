import { identityMessageText } from '../../../../shared/domain/identity-messages';
import { TextField } from '../../components/TextField';
import type { UiNode, UiText } from './flow-types';

export function UiMessages({ messages, testId = 'flow-messages' }: { messages: readonly UiText[] | undefined; testId?: string }) {
  if (!messages?.length) return null;
  return (
    <div className="flow-messages" data-testid={testId}>
      {messages.map((m) => (
        <p key={`${m.id}-${m.text}`} className={`flow-message flow-message-${m.type}`} role={m.type === 'error' ? 'alert' : 'status'} data-testid={`flow-message-${m.type}`}>
          {identityMessageText(m)}
        </p>
      ))}
    </div>
  );
}

function labelOf(node: UiNode): string {
  const attrs = node.attributes;
  return node.meta.label?.text ?? (attrs.node_type === 'input' ? (attrs.label?.text ?? attrs.name) : '');
}

function stringValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : String(value);
}

/** Renders one UI node by its type; scripts never run. */
export function FlowNode({ node }: { node: UiNode }) {
  const attrs = node.attributes;
  const errors = node.messages.filter((m) => m.type === 'error').map((m) => identityMessageText(m));
  const others = node.messages.filter((m) => m.type !== 'error');

  if (attrs.node_type === 'input') {
    const testId = `flow-input-${attrs.name}`;
    if (attrs.type === 'hidden') return <input type="hidden" name={attrs.name} defaultValue={stringValue(attrs.value)} />;
    if (attrs.type === 'submit' || attrs.type === 'button') {
      return (
        <button type="submit" name={attrs.name} value={stringValue(attrs.value)} disabled={attrs.disabled} className="btn btn-primary btn-block" data-testid={`flow-submit-${attrs.name}-${stringValue(attrs.value) ?? ''}`}>
          {labelOf(node)}
        </button>
      );
    }
    if (attrs.type === 'checkbox') {
      return (
        <label className="checkbox">
          <input type="checkbox" name={attrs.name} defaultChecked={attrs.value === true} disabled={attrs.disabled} data-testid={testId} />
          {labelOf(node)}
        </label>
      );
    }
    return (
      <>
        <TextField
          label={labelOf(node)}
          name={attrs.name}
          type={attrs.type === 'datetime-local' ? 'datetime-local' : attrs.type}
          defaultValue={stringValue(attrs.value)}
          required={attrs.required}
          disabled={attrs.disabled}
          autoComplete={attrs.autocomplete}
          pattern={attrs.pattern}
          maxLength={attrs.maxlength}
          error={errors.length ? errors.join(' ') : undefined}
          data-testid={testId}
        />
        <UiMessages messages={others} testId={`${testId}-messages`} />
      </>
    );
  }
  if (attrs.node_type === 'text') {
    return (
      <p className="flow-text" id={attrs.id}>
        {node.meta.label?.text && <strong>{node.meta.label.text} </strong>}
        <code>{attrs.text.text}</code>
      </p>
    );
  }
  if (attrs.node_type === 'a') {
    return (
      <a className="link" href={attrs.href} id={attrs.id}>
        {attrs.title.text}
      </a>
    );
  }
  if (attrs.node_type === 'img') {
    return <img src={attrs.src} id={attrs.id} width={attrs.width} height={attrs.height} alt={labelOf(node)} />;
  }
  return null;
}
