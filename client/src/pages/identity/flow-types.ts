/** The parts of Ory's self-service flow objects the console renders (see CONTRACT.md §c). */

export type FlowKind = 'login' | 'registration' | 'recovery' | 'verification' | 'settings';

export interface UiText {
  id: number;
  text: string;
  type: 'info' | 'error' | 'success';
  context?: unknown;
}

export interface UiNodeInputAttributes {
  node_type: 'input';
  name: string;
  type: string;
  value?: unknown;
  required?: boolean;
  disabled?: boolean;
  autocomplete?: string;
  pattern?: string;
  maxlength?: number;
  label?: UiText;
}

export interface UiNodeTextAttributes {
  node_type: 'text';
  id: string;
  text: UiText;
}

export interface UiNodeAnchorAttributes {
  node_type: 'a';
  id: string;
  href: string;
  title: UiText;
}

export interface UiNodeImageAttributes {
  node_type: 'img';
  id: string;
  src: string;
  width?: number;
  height?: number;
}

export interface UiNodeOtherAttributes {
  node_type: 'script' | 'div';
  id?: string;
}

export type UiNodeAttributes =
  | UiNodeInputAttributes
  | UiNodeTextAttributes
  | UiNodeAnchorAttributes
  | UiNodeImageAttributes
  | UiNodeOtherAttributes;

export interface UiNode {
  type: 'input' | 'text' | 'img' | 'a' | 'script' | 'div';
  group: string;
  attributes: UiNodeAttributes;
  messages: UiText[];
  meta: { label?: UiText };
}

export interface UiContainer {
  action: string;
  method: string;
  nodes: UiNode[];
  messages?: UiText[];
}

export interface SelfServiceFlow {
  id: string;
  type?: string;
  expires_at?: string;
  issued_at?: string;
  request_url?: string;
  return_to?: string;
  state?: string;
  ui: UiContainer;
}

export interface ContinueWith {
  action: string;
  redirect_browser_to?: string;
  flow?: { id: string; url?: string };
}

export interface FlowErrorBody {
  error?: { id?: string; code?: number; status?: string; reason?: string; message?: string };
  redirect_browser_to?: string;
}

export function isFlow(value: unknown): value is SelfServiceFlow {
  return typeof value === 'object' && value !== null && 'ui' in value && 'id' in value;
}
