import { describe, expect, it } from 'vitest';
import { requestUrlDomain, smsText } from './sms-templates';

describe('the built-in text messages', () => {
  it('are Kratos’ texts, with the WebOTP line only when the flow’s request URL has a host', () => {
    const data = { LoginCode: '123456', ExpiresInMinutes: 15, RequestURL: 'https://auth.example.com/self-service/login/api' };
    expect(smsText('login_code', 'valid', data)).toBe('Your login code is: 123456\n\nIt expires in 15 minutes.\n\n@auth.example.com #123456\n');
    expect(smsText('login_code', 'valid', { ...data, RequestURL: '' })).toBe('Your login code is: 123456\n\nIt expires in 15 minutes.\n');
    expect(smsText('verification_code', 'valid', { VerificationCode: '654321', ExpiresInMinutes: 60 })).toBe(
      'Your verification code is: 654321\n\nIf this was not you, do nothing. It expires in 60 minutes.\n',
    );
    expect(smsText('registration_code', 'valid', { RegistrationCode: '111222', ExpiresInMinutes: 5 })).toMatch(/^Your registration code is: 111222\n/);
    expect(smsText('recovery_code', 'valid', { RecoveryCode: '999000', RequestURL: 'http://127.0.0.1:4000/x' })).toBe('Your recovery code is: 999000\n\n@127.0.0.1 #999000\n');
  });

  it('are absent for templates Kratos sends by email only', () => {
    expect(smsText('recovery', 'valid', {})).toBeNull();
    expect(smsText('login_code', 'invalid', {})).toBeNull();
    expect(requestUrlDomain('not a url')).toBe('');
  });
});
