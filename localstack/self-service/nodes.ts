import type {
  UiNode as OryUiNode,
  UiNodeAnchorAttributes,
  UiNodeImageAttributes,
  UiNodeTextAttributes,
  UiNodeInputAttributes,
  UiNodeInputAttributesAutocompleteEnum,
  UiNodeInputAttributesTypeEnum,
} from '@ory/client';
import { texts, type UiText } from './texts';

export type NodeGroup = 'default' | 'password' | 'profile' | 'code' | 'link' | 'oidc' | 'saml' | 'totp' | 'lookup_secret' | 'passkey' | 'webauthn' | 'identifier_first';

/** Ory's uiNode, as @ory/client models it: every node the builders below make is one. */
export type UiNode = OryUiNode;

interface InputOpts {
  value?: unknown;
  required?: boolean;
  autocomplete?: UiNodeInputAttributesAutocompleteEnum;
  label?: UiText;
  pattern?: string;
  maxlength?: number;
}

export function input(group: NodeGroup, name: string, type: string, opts: InputOpts = {}): UiNode {
  const attributes = {
    name,
    type: type as UiNodeInputAttributesTypeEnum,
    ...(opts.value !== undefined ? { value: opts.value } : {}),
    ...(opts.required ? { required: true } : {}),
    ...(opts.autocomplete ? { autocomplete: opts.autocomplete } : {}),
    ...(opts.pattern ? { pattern: opts.pattern } : {}),
    ...(opts.maxlength ? { maxlength: opts.maxlength } : {}),
    disabled: false,
    node_type: 'input',
  } satisfies UiNodeInputAttributes;
  return { type: 'input', group, attributes, messages: [], meta: opts.label ? { label: opts.label } : {} } satisfies UiNode;
}

export function anchor(group: NodeGroup, id: string, href: string, title: UiText): UiNode {
  const attributes = { id, href, title, node_type: 'a' } satisfies UiNodeAnchorAttributes;
  return { type: 'a', group, attributes, messages: [], meta: { label: title } } satisfies UiNode;
}

export function image(group: NodeGroup, id: string, src: string, size: number, label: UiText): UiNode {
  const attributes = { id, src, width: size, height: size, node_type: 'img' } satisfies UiNodeImageAttributes;
  return { type: 'img', group, attributes, messages: [], meta: { label } } satisfies UiNode;
}

export function textNode(group: NodeGroup, id: string, text: UiText, label: UiText): UiNode {
  const attributes = { id, text, node_type: 'text' } satisfies UiNodeTextAttributes;
  return { type: 'text', group, attributes, messages: [], meta: { label } } satisfies UiNode;
}

export const csrfNode = (token: string) => input('default', 'csrf_token', 'hidden', { value: token, required: true });

const emailTrait = (group: NodeGroup, value?: string) =>
  input(group, 'traits.email', 'email', { value, required: true, autocomplete: 'email', label: texts.labelGenerated('Email') });
const nameTrait = (group: NodeGroup, value?: string) =>
  input(group, 'traits.name', 'text', { value, label: texts.labelGenerated('Name') });
const password = (group: NodeGroup, autocomplete: UiNodeInputAttributesAutocompleteEnum) =>
  input(group, 'password', 'password', { required: true, autocomplete, label: texts.labelPassword() });
export const submit = (group: NodeGroup, value: string, label: UiText) => input(group, 'method', 'submit', { value, label });

export const loginNodes = (csrf: string, identifier?: string): UiNode[] => [
  csrfNode(csrf),
  input('default', 'identifier', 'text', {
    value: identifier ?? '',
    required: true,
    autocomplete: 'username',
    label: texts.labelGenerated('Email'),
  }),
  password('password', 'current-password'),
  submit('password', 'password', texts.signIn()),
];

/** The first step of an identifier-first login (Kratos' `idfirst` strategy): the identifier and Continue. */
export const identifierFirstNodes = (csrf: string): UiNode[] => [
  csrfNode(csrf),
  input('identifier_first', 'identifier', 'text', { value: '', required: true, autocomplete: 'username webauthn', label: texts.labelGenerated('Email') }),
  submit('identifier_first', 'identifier_first', texts.labelContinue()),
];

/** The second step: the identifier kept (hidden) and the password of an account that has one. */
export const identifiedPasswordNodes = (csrf: string, identifier: string): UiNode[] => [
  csrfNode(csrf),
  input('identifier_first', 'identifier', 'hidden', { value: identifier, required: true, autocomplete: 'username webauthn', label: texts.labelGenerated('Email') }),
  password('password', 'current-password'),
  submit('password', 'password', texts.signIn()),
];

export const registrationNodes = (csrf: string): UiNode[] => [
  csrfNode(csrf),
  emailTrait('default'),
  nameTrait('default'),
  password('password', 'new-password'),
  submit('password', 'password', texts.signUp()),
];

export const settingsNodes = (csrf: string, traits: { email?: string; name?: string }): UiNode[] => [
  csrfNode(csrf),
  emailTrait('profile', traits.email ?? ''),
  nameTrait('profile', traits.name ?? ''),
  submit('profile', 'profile', texts.labelSave()),
  password('password', 'new-password'),
  submit('password', 'password', texts.labelSave()),
];

/** Recovery / verification by code, before an email was sent. */
export const chooseCodeNodes = (csrf: string, email?: string): UiNode[] => [
  csrfNode(csrf),
  input('code', 'email', 'email', { value: email, required: true, autocomplete: 'email', label: texts.labelEmail() }),
  submit('code', 'code', texts.labelSubmit()),
];

/** Recovery by link (`selfservice.flows.recovery.use: link`): the address to send the link to. */
export const chooseLinkNodes = (csrf: string, email?: string): UiNode[] => [
  csrfNode(csrf),
  input('link', 'email', 'email', { value: email, required: true, autocomplete: 'email', label: texts.labelEmail() }),
  submit('link', 'link', texts.labelSubmit()),
];

/** Recovery / verification by code, once the code was sent to `email`. */
export const enterCodeNodes = (csrf: string, email: string, kind: 'recovery' | 'verification'): UiNode[] => [
  csrfNode(csrf),
  input('code', 'code', 'text', {
    required: true,
    pattern: '[0-9]+',
    maxlength: 6,
    autocomplete: 'one-time-code',
    label: kind === 'recovery' ? texts.labelRecoveryCode() : texts.labelVerificationCode(),
  }),
  input('code', 'method', 'hidden', { value: 'code' }),
  submit('code', 'code', texts.labelContinue()),
  input('code', 'email', 'submit', { value: email, label: texts.labelResendCode() }),
];

/** The nodes without the groups of methods the tenant's config turned off (`selfservice.methods.{group}.enabled`). */
export function withoutDisabledMethods(nodes: UiNode[], settings: { methods: { password: boolean; code: boolean; profile: boolean; totp: boolean; lookup_secret: boolean; passkey: boolean; webauthn: boolean } }): UiNode[] {
  const off = new Set(Object.entries(settings.methods).filter(([, on]) => !on).map(([group]) => group));
  // The WebAuthn script (group `webauthn`) serves passkeys and security keys alike: it stays, once.
  const scripts = new Set<string>();
  return nodes.filter((n) => {
    if (n.type === 'script') {
      const id = String((n.attributes as { id?: string }).id);
      return scripts.has(id) ? false : (scripts.add(id), true);
    }
    return !off.has(n.group);
  });
}

/** Sets an input's value (all nodes named `name` that are not submit buttons). */
/** The input (not a submit button) named `name`, as its attributes: anchors and other nodes are no inputs. */
const isNamedInput = (n: UiNode, name: string): n is UiNode & { attributes: UiNodeInputAttributes } =>
  n.attributes.node_type === 'input' && n.attributes.name === name && n.attributes.type !== 'submit';

export function setValue(nodes: UiNode[], name: string, value: unknown): void {
  for (const n of nodes) if (isNamedInput(n, name)) n.attributes.value = value;
}

export function addNodeMessage(nodes: UiNode[], name: string, message: UiText): void {
  nodes.find((n) => isNamedInput(n, name))?.messages.push(message);
}

export function clearNodeMessages(nodes: UiNode[]): void {
  for (const n of nodes) n.messages = [];
}
