import { describe, expect, it } from 'vitest';
import { organizationFormSchema, splitDomains } from './organization-form';

describe('the organization form', () => {
  it('splits domains on commas, spaces and new lines', () => {
    expect(splitDomains(' a.example.com, b.example.com\nc.example.com ')).toEqual(['a.example.com', 'b.example.com', 'c.example.com']);
    expect(splitDomains('')).toEqual([]);
  });

  it('names the domain that breaks a rule of spec §5, and refuses one listed twice', () => {
    const bad = organizationFormSchema.safeParse({ label: 'Acme', domains: 'ok.example.com, localhost' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.message).toBe('localhost: A domain name must contain a dot');
    const twice = organizationFormSchema.safeParse({ label: 'Acme', domains: 'a.example.com A.example.com' });
    expect(twice.error!.issues[0]!.message).toBe('Each domain may be listed once');
    expect(organizationFormSchema.safeParse({ label: 'Acme', domains: 'a.example.com' }).success).toBe(true);
    expect(organizationFormSchema.safeParse({ label: ' ', domains: '' }).success).toBe(false);
  });
});
