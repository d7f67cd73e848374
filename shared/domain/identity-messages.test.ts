import { describe, expect, it } from 'vitest';
import { identityMessageText, minutesPhrase, plainDurations } from './identity-messages';

const NOW = Date.parse('2026-01-01T12:00:00Z');

describe('identity-provider messages in plain words', () => {
  it('says durations the way people do', () => {
    expect(minutesPhrase(15)).toBe('15 minutes');
    expect(minutesPhrase(14.6)).toBe('15 minutes');
    expect(minutesPhrase(1.2)).toBe('1 minute');
    expect(minutesPhrase(0.2)).toBe('less than a minute');
    expect(plainDurations('within the next 15.00 minutes.')).toBe('within the next 15 minutes.');
    expect(plainDurations('expired 1.00 minutes ago')).toBe('expired 1 minute ago');
  });

  it('builds the recovery sentence from the privileged session\'s end', () => {
    const message = {
      id: 1060001,
      text: 'You successfully recovered your account. ... within the next 15.00 minutes.',
      context: { privilegedSessionExpiresAt: '2026-01-01T12:15:00Z' },
    };
    expect(identityMessageText(message, NOW)).toBe('You recovered your account. Set a new password within the next 15 minutes.');
  });

  it('says which page expired and how long ago', () => {
    expect(identityMessageText({ id: 4040001, text: 'The registration flow expired 3.50 minutes ago', context: { expired_at: '2026-01-01T11:57:00Z' } }, NOW)).toBe(
      'This sign-up page expired 3 minutes ago. Please try again.',
    );
    expect(identityMessageText({ id: 4010001, text: 'The login flow expired 0.02 minutes ago', context: { expired_at: '2026-01-01T11:59:59Z' } }, NOW)).toBe(
      'This sign-in page expired less than a minute ago. Please try again.',
    );
  });

  it('names a missing field', () => {
    expect(identityMessageText({ id: 4000002, text: 'Property email is missing.', context: { property: 'email' } })).toBe('Please enter your email address.');
    expect(identityMessageText({ id: 4000002, text: 'Property nickname is missing.', context: { property: 'nickname' } })).toBe('Please enter nickname.');
  });

  it('keeps other texts, with plain durations', () => {
    expect(identityMessageText({ id: 4000006, text: 'The provided credentials are invalid.' })).toBe('The provided credentials are invalid.');
    expect(identityMessageText({ id: 1, text: 'Wait 2.00 minutes' })).toBe('Wait 2 minutes');
  });
});
