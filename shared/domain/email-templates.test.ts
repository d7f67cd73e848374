import { describe, expect, it } from 'vitest';
import {
  customTemplateOf,
  messageTemplateLabel,
  templateLabel,
  defaultTemplate,
  fromBase64Url,
  renderEmail,
  renderTemplate,
  sampleData,
  templateOfEvent,
  templateVariables,
  templateVariants,
  TemplateError,
  TEST_EVENT_KINDS,
  toBase64Url,
  unknownTemplateReason,
} from './email-templates';

describe('email templates', () => {
  it('renders variables, nested identity traits and trim markers', () => {
    const data = { To: 'ada@example.com', RecoveryCode: '123456', Identity: { traits: { email: 'ada@example.com' } } };
    expect(renderTemplate('Code {{ .RecoveryCode }} for {{.Identity.traits.email}}', data)).toBe('Code 123456 for ada@example.com');
    expect(renderTemplate('a   {{- .To -}}   b', data)).toBe('aada@example.comb');
    expect(renderTemplate('{{ .Identity.traits.missing }}', data)).toBe('<no value>');
  });

  it('escapes values in HTML only', () => {
    const data = { To: '<b>"x"</b>' };
    expect(renderTemplate('<p>{{ .To }}</p>', data, { html: true })).toBe('<p>&lt;b&gt;&#34;x&#34;&lt;/b&gt;</p>');
    expect(renderTemplate('{{ .To }}', data)).toBe('<b>"x"</b>');
  });

  it('refuses what it cannot render, saying what to fix', () => {
    expect(() => renderTemplate('{{ if .To }}x{{ end }}', {})).toThrow(TemplateError);
    expect(() => renderTemplate('Hello {{ .To', {})).toThrow(/not closed/);
    expect(() => renderTemplate('{{ .Nope }}', {}, { variables: ['To'] })).toThrow(/not a variable of this template; use \.To/);
    expect(() => renderEmail({ subject: '{{ .X', body: { html: '', plaintext: '' } }, {})).toThrow(/^Subject:/);
  });

  it('lists every template and variant, with a reason for unknown ones', () => {
    expect(templateVariants()).toHaveLength(10);
    expect(unknownTemplateReason('recovery_code', 'valid')).toBeNull();
    expect(unknownTemplateReason('nope', 'valid')).toMatch(/no email template "nope"/);
    expect(unknownTemplateReason('recovery_code', 'nope')).toMatch(/use valid or invalid/);
    expect(unknownTemplateReason('login_code', 'invalid')).toMatch(/has no invalid variant/);
    expect(templateVariables('recovery_code', 'valid').map((v) => v.name)).toContain('RecoveryCode');
  });

  it('renders every default with the sample data', () => {
    for (const { template, variant } of templateVariants()) {
      const names = templateVariables(template, variant).map((v) => v.name);
      const out = renderEmail(defaultTemplate(template, variant), sampleData('ada@example.com'), names);
      expect(out.subject).not.toBe('');
      expect(out.plaintext).not.toContain('{{');
    }
  });

  it('maps every test-event kind to a template, stub to none', () => {
    for (const kind of TEST_EVENT_KINDS) {
      const t = templateOfEvent(kind);
      if (kind === 'stub') expect(t).toBeNull();
      else expect(unknownTemplateReason(t!.template, t!.variant)).toBeNull();
    }
    expect(templateOfEvent('recovery_code_invalid')).toEqual({ template: 'recovery_code', variant: 'invalid' });
  });

  it('round-trips base64:// values and reads custom templates from the config, filling missing parts', () => {
    expect(fromBase64Url(toBase64Url('Grüße {{ .To }}'))).toBe('Grüße {{ .To }}');
    expect(fromBase64Url('base64://%%%')).toBeNull();
    const templates = { recovery_code: { valid: { email: { subject: toBase64Url('Your code'), body: { plaintext: toBase64Url('Code: {{ .RecoveryCode }}') } } } } };
    const custom = customTemplateOf(templates, 'recovery_code', 'valid');
    expect(custom?.subject).toBe('Your code');
    expect(custom?.body.plaintext).toBe('Code: {{ .RecoveryCode }}');
    expect(custom?.body.html).toBe(defaultTemplate('recovery_code', 'valid').body.html);
    expect(customTemplateOf(templates, 'recovery_code', 'invalid')).toBeNull();
  });
});

describe('template names as the reader sees them', () => {
  it('name a template and its variant in words', () => {
    expect(templateLabel('recovery_code', 'valid')).toBe('Recovery code (known address)');
    expect(templateLabel('verification', 'invalid')).toBe('Verification link (unknown address)');
  });

  it('never show a template type as an id', () => {
    expect(messageTemplateLabel('recovery_code_valid')).toBe('Recovery code (known address)');
    expect(messageTemplateLabel('verification_code_invalid')).toBe('Verification code (unknown address)');
    expect(messageTemplateLabel('login_code_valid')).toBe('Sign-in code (known address)');
    expect(messageTemplateLabel('stub')).toBe('Test message');
    expect(messageTemplateLabel('sms_otp_code')).toBe('Sms otp code');
    for (const kind of TEST_EVENT_KINDS) expect(messageTemplateLabel(kind)).not.toMatch(/_/);
  });
});
