import type { UiNode } from '@ory/client';

/*
 * What a self-service flow shows, as its row stores it (identity/schema.ts's selfservice_flows) and the
 * self-service flows build it (self-service/nodes.ts, texts.ts).
 */

/** Ory's uiText: `{ id, text, type, context? }` with Kratos' message ids. */
export interface UiText {
  id: number;
  text: string;
  type: 'info' | 'error' | 'success';
  context?: Record<string, unknown>;
}

export type FlowKind = 'login' | 'registration' | 'settings' | 'recovery' | 'verification';

export interface FlowUi {
  nodes: UiNode[];
  messages?: UiText[];
}
