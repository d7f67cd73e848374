import { describe, expect, it } from 'vitest';
import { previewOf } from './preview';

describe('template preview', () => {
  it('renders with the sample values, escaping them in HTML', () => {
    const preview = previewOf({ subject: 'Code for {{ .To }}', html: '<b>{{ .RecoveryCode }}</b>', plaintext: '{{ .RecoveryCode }}' }, ['To', 'RecoveryCode']);
    expect(preview).toEqual({ ok: true, rendered: { subject: 'Code for ada@example.com', html: '<b>123456</b>', plaintext: '123456' } });
  });

  it('says why a template does not render, as the save would', () => {
    expect(previewOf({ subject: 'x', html: 'x', plaintext: '{{ .LoginCode }}' }, ['To', 'RecoveryCode'])).toEqual({
      ok: false,
      reason: 'Plain-text body: {{ .LoginCode }} is not a variable of this template; use .To, .RecoveryCode.',
    });
  });
});
