import { describe, expect, it } from 'vitest';
import { previewClaimsMapping, schemaTraitShape } from './social-providers';

const schema = (traits: Record<string, unknown>) => ({ type: 'object', properties: { traits: { type: 'object', properties: traits } } });

describe("Ory's default claims mapping, as previewed and as sign-in applies it", () => {
  it("reads the schema's trait names and whether the name is first and last", () => {
    expect(schemaTraitShape(schema({ email: { type: 'string' }, name: { type: 'object' } }))).toEqual({ names: ['email', 'name'], nameIsObject: true });
    expect(schemaTraitShape(null)).toEqual({ names: [], nameIsObject: false });
    expect(schemaTraitShape({ properties: { traits: 'odd' } })).toEqual({ names: [], nameIsObject: false });
  });

  it('maps the standard claims onto the traits the schema declares, and nothing else', () => {
    const claims = { sub: '1', email: 'jane@example.com', name: 'Jane Doe', given_name: 'Jane', family_name: 'Doe', picture: 'https://x.test/p.png', groups: ['admins'] };
    expect(previewClaimsMapping(claims, schema({ email: {}, name: { type: 'string' } }))).toEqual({ email: 'jane@example.com', name: 'Jane Doe' });
    expect(previewClaimsMapping(claims, schema({ email: {}, name: { type: 'object' }, picture: {} }))).toEqual({
      email: 'jane@example.com',
      name: { first: 'Jane', last: 'Doe' },
      picture: 'https://x.test/p.png',
    });
    // A full name from its parts when the provider gives no name claim.
    expect(previewClaimsMapping({ given_name: 'Jane', family_name: 'Doe' }, schema({ name: {} }))).toEqual({ name: 'Jane Doe' });
    expect(previewClaimsMapping({ email: '' }, schema({ email: {} }))).toEqual({});
  });
});
