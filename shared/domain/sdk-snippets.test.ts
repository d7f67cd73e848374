import { describe, expect, it } from 'vitest';
import { CONNECT_FRAMEWORKS, connectSnippets } from './sdk-snippets';

describe('connectSnippets', () => {
  const endpoint = 'https://example-slug.projects.example.com';
  const snippets = connectSnippets(endpoint);

  it('has one snippet per framework of the picker', () => {
    expect(Object.keys(snippets).sort()).toEqual(CONNECT_FRAMEWORKS.map((f) => f.id).sort());
  });

  it('points every snippet at the project’s base URL and says how to install each SDK', () => {
    for (const { id } of CONNECT_FRAMEWORKS) {
      expect(snippets[id].code, id).toContain(endpoint);
      if (id === 'curl') expect(snippets[id].install).toBeNull();
      else expect(snippets[id].install, id).toMatch(/^(npm install @ory\/client|go get github\.com\/ory\/client-go)$/);
    }
  });
});
