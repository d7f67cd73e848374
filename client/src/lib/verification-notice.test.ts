import { describe, expect, it } from 'vitest';
import { verificationFlowId, verificationPath } from './verification-notice';

describe('verification notice', () => {
  it('finds the verification flow a registration continues with', () => {
    expect(verificationFlowId([{ action: 'show_verification_ui', flow: { id: 'f1' } }, { action: 'redirect_browser_to' }])).toBe('f1');
    expect(verificationFlowId([{ action: 'redirect_browser_to' }])).toBeUndefined();
    expect(verificationFlowId(undefined)).toBeUndefined();
  });

  it('links to the flow whose code was sent, else to a new verification', () => {
    expect(verificationPath({ flowId: 'a b' })).toBe('/verification?flow=a%20b');
    expect(verificationPath({})).toBe('/verification');
    expect(verificationPath(null)).toBe('/verification');
  });
});
