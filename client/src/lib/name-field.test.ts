import { describe, expect, it } from 'vitest';
import { isNameChanged, nameErrorMessage } from './name-field';

describe('rename forms', () => {
  it('counts a name as changed only when it differs beyond surrounding spaces', () => {
    expect(isNameChanged('Alpha', 'Alpha')).toBe(false);
    expect(isNameChanged('  Alpha ', 'Alpha')).toBe(false);
    expect(isNameChanged('Alpha Prime', 'Alpha')).toBe(true);
    expect(isNameChanged('', 'Alpha')).toBe(true);
  });

  it('shows the field error of a failed save, else the error text, else a fallback', () => {
    const zod = { message: 'bad', data: { code: 'BAD_REQUEST', zodError: { fieldErrors: { name: ['Too long'] } } } };
    expect(nameErrorMessage(zod)).toBe('Too long');
    expect(nameErrorMessage(new Error('The project was changed elsewhere'))).toBe('The project was changed elsewhere');
    expect(nameErrorMessage({})).toBe('The name could not be saved.');
  });
});
