import type { HookStop } from '../kernel/identity-deps';
import type { FlowUi } from './flows';
import { addNodeMessage } from './nodes';

/** Puts an interrupting web hook's messages on the flow: on the node its pointer names (`#/traits/email`), else on the form. */
export function showHookMessages(ui: FlowUi, stop: HookStop): void {
  for (const { pointer, messages } of stop) {
    const name = pointer.replace(/^#\/?/, '').split('/').filter(Boolean).join('.');
    const node = name ? ui.nodes.find((n) => (n.attributes as { name?: string }).name === name) : undefined;
    if (node) for (const m of messages) addNodeMessage(ui.nodes, name, m);
    else ui.messages = [...(ui.messages ?? []), ...messages];
  }
}
