import type { UiContainer, UiNode, UiText } from '@ory/client';
import { attrs, esc } from './html';
import { chrome, translate, type ChromeKey, type Locale } from './i18n';
import { faviconLink, stylesheet, type HostedTheme } from './theme';

export interface PageFrame {
  locale: Locale;
  theme: HostedTheme | null;
  title: string;
  /** Inner HTML of the card, already escaped. */
  body: string;
}

/** A whole hosted page: one card, the theme's stylesheet inline, no script but what a flow's script node loads. */
export function page({ locale, theme, title, body }: PageFrame): string {
  const logo = theme?.logo_url ? `<img class="logo" src="${esc(theme.logo_url)}" alt="${esc(theme.name ?? '')}">` : '';
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
${faviconLink(theme)}
<style>${stylesheet(theme)}</style>
</head>
<body>
<main data-testid="hosted-card">
${logo}<h1>${esc(title)}</h1>
${body}
</main>
</body>
</html>`;
}

/** Flow- or page-level messages as a list; errors are announced. */
export function messagesHtml(locale: Locale, messages: UiText[] | undefined): string {
  if (!messages?.length) return '';
  const items = messages
    .map((m) => `<li class="message ${esc(m.type)}" data-testid="hosted-message" data-id="${esc(m.id)}">${esc(translate(locale, m))}</li>`)
    .join('');
  // The live region wraps the list: a list keeps its own role, or its items are no longer a list's.
  const role = messages.some((m) => m.type === 'error') ? 'alert' : 'status';
  return `<div role="${role}"><ul class="messages">${items}</ul></div>`;
}

type Attributes = Record<string, unknown> & { node_type: string };

const labelOf = (locale: Locale, node: UiNode): string => {
  const label = (node.meta as { label?: UiText } | undefined)?.label;
  return label ? translate(locale, label) : '';
};

/** One UI node as HTML, by its type and attributes alone, so the nodes of every method render alike. */
export function nodeHtml(locale: Locale, node: UiNode, key: string): string {
  const a = node.attributes as unknown as Attributes;
  const label = labelOf(locale, node);
  const id = `n-${key}`;
  const messages = node.messages ?? [];
  const described = messages.length ? `${id}-m` : undefined;
  const fieldMessages = messages.length
    ? messages
        .map((m, i) => `<p class="field-message ${esc(m.type)}" id="${i === 0 ? `${id}-m` : `${id}-m${i}`}">${esc(translate(locale, m))}</p>`)
        .join('')
    : '';
  const invalid = messages.some((m) => m.type === 'error');
  switch (a.node_type) {
    case 'input': {
      const type = String(a.type ?? 'text');
      const name = String(a.name ?? '');
      if (type === 'hidden') return `<input${attrs({ type, name, value: valueOf(a.value) })}>`;
      if (type === 'submit' || type === 'button') {
        const onclick = typeof a.onclick === 'string' ? a.onclick : undefined;
        return `<button${attrs({ type, name, value: valueOf(a.value), disabled: a.disabled === true, onclick, formnovalidate: type === 'submit' && name !== 'method' })}>${esc(label || String(a.value ?? name))}</button>${fieldMessages}`;
      }
      if (type === 'checkbox') {
        return `<div class="check"><input${attrs({ id, type, name, value: 'true', checked: a.value === true, required: a.required === true, disabled: a.disabled === true, 'aria-describedby': described, 'aria-invalid': invalid ? 'true' : undefined })}><label for="${id}">${esc(label || name)}</label></div>${fieldMessages}`;
      }
      return `<div class="field"><label for="${id}">${esc(label || name)}</label><input${attrs({
        id,
        type,
        name,
        value: valueOf(a.value),
        required: a.required === true,
        disabled: a.disabled === true,
        autocomplete: a.autocomplete,
        pattern: a.pattern,
        maxlength: a.maxlength,
        'aria-describedby': described,
        'aria-invalid': invalid ? 'true' : undefined,
      })}>${fieldMessages}</div>`;
    }
    case 'text': {
      const text = a.text as UiText | undefined;
      const secrets = (text?.context as { secrets?: UiText[] } | undefined)?.secrets;
      const body = Array.isArray(secrets) ? `<pre class="codes">${secrets.map((s) => esc(s.text)).join('\n')}</pre>` : `<p>${esc(text ? translate(locale, text) : '')}</p>`;
      return `<div${attrs({ id: a.id })}>${label ? `<p>${esc(label)}</p>` : ''}${body}</div>`;
    }
    case 'img':
      return `<img${attrs({ id: a.id, src: a.src, width: a.width, height: a.height, alt: label || String(a.id ?? '') })}>`;
    case 'a': {
      const title = a.title as UiText | undefined;
      return `<a${attrs({ id: a.id, href: a.href })}>${esc(title ? translate(locale, title) : label)}</a>`;
    }
    case 'script':
      return `<script${attrs({ id: a.id, src: a.src, type: a.type, async: a.async === true, crossorigin: a.crossorigin, integrity: a.integrity, referrerpolicy: a.referrerpolicy, nonce: a.nonce })}></script>`;
    case 'div':
      return `<div${attrs({ id: a.id, class: a.class })}></div>`;
    default:
      return '';
  }
}

const valueOf = (v: unknown) => (v === undefined || v === null ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v));

const GROUP_TITLES: Partial<Record<string, ChromeKey>> = {
  profile: 'group.profile',
  password: 'group.password',
  oidc: 'group.oidc',
  saml: 'group.saml',
  totp: 'group.totp',
  webauthn: 'group.webauthn',
  passkey: 'group.passkey',
  lookup_secret: 'group.lookup_secret',
  code: 'group.code',
};

const isHidden = (n: UiNode) => n.attributes.node_type === 'input' && (n.attributes as { type?: string }).type === 'hidden';
const isButton = (n: UiNode) => n.attributes.node_type === 'input' && ['submit', 'button'].includes(String((n.attributes as { type?: string }).type));

/**
 * A flow's UI as forms: one form per method group (password, profile, oidc, totp, …), each carrying the
 * `default` group's nodes — its hidden ones always, its fields only where the group has fields of its own (a
 * provider button submits without the identifier). The identifier an identifier-first login already asked (kept
 * hidden in its `identifier_first` group) travels likewise. Groups keep the order in which their first node comes.
 */
export function flowForms(locale: Locale, ui: UiContainer, opts: { titled: boolean }): string {
  const nodes = ui.nodes;
  const groups: string[] = [];
  const carried = (n: UiNode) => n.group === 'default' || (n.group === 'identifier_first' && isHidden(n));
  for (const n of nodes) if (!carried(n) && !groups.includes(n.group)) groups.push(n.group);
  const defaults = nodes.filter(carried);
  if (!groups.length) groups.push('default');
  return groups
    .map((group, gi) => {
      const own = group === 'default' ? [] : nodes.filter((n) => n.group === group);
      // A passkey sign-up names the passkey after a trait: its form carries the traits as a password's does.
      const signsUp = own.some((n) => n.attributes.node_type === 'input' && (n.attributes as { name?: string }).name === 'passkey_register');
      // A sign-in code is sent to the identifier: the code form carries it as the password form does.
      const hasFields = signsUp || group === 'code' || own.some((n) => n.attributes.node_type === 'input' && !isHidden(n) && !isButton(n));
      const shared = defaults.filter((n) => isHidden(n) || hasFields || group === 'default' || n.attributes.node_type !== 'input');
      const inner = [...shared, ...own].map((n, i) => nodeHtml(locale, n, `${gi}-${i}`)).join('\n');
      const titleKey = GROUP_TITLES[group];
      const legend = opts.titled && titleKey ? `<h2 id="g-${esc(group)}">${esc(chrome(locale, titleKey))}</h2>` : '';
      return `${legend}<form${attrs({ action: ui.action, method: ui.method, 'data-group': group, 'aria-labelledby': legend ? `g-${group}` : undefined })}>\n${inner}\n</form>`;
    })
    .join('\n');
}
