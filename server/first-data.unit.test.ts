import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { firstQueries, frameQueries, PAGE_QUERIES, SESSION_QUERY, type FirstQuery } from '../shared/first-queries';
import { ROUTES } from '../client/src/routes';
import { scriptJsonText } from './first-data';
import { appRouter } from './routers/_app';

interface ProcedureDef {
  type: 'query' | 'mutation' | 'subscription';
  inputs: z.ZodType[];
}
const procedures = appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef } | undefined>;

/** Every parameter a route of the table can have, as the router would pass it (a path segment). */
const PARAMS = {
  project: '7a0c1f5e-2b3d-4c6e-8f90-1a2b3c4d5e6f',
  workspace: '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9',
  identity: '5f1e2d3c-4b5a-4697-8877-665544332211',
  session: '9e8d7c6b-5a49-4837-9261-504f3e2d1c0b',
  id: '3c2b1a09-f8e7-4d6c-8b5a-493827161504',
};

describe('first queries of a page opened by URL', () => {
  const all: [string, FirstQuery][] = [
    ['session', SESSION_QUERY],
    ...frameQueries(PARAMS).map((q): [string, FirstQuery] => ['frame', q]),
    ...frameQueries({}).map((q): [string, FirstQuery] => ['frame', q]),
    ...Object.entries(PAGE_QUERIES).flatMap(([id, queries]) => queries(PARAMS).map((q): [string, FirstQuery] => [id, q])),
  ];

  it.each(all)('%s: %j is a query of the console whose input its schema accepts', (_route, [path, input]) => {
    const procedure = procedures[path];
    expect(procedure, `${path} is no procedure`).toBeDefined();
    expect(procedure!._def.type).toBe('query');
    for (const schema of procedure!._def.inputs) expect(() => schema.parse(input)).not.toThrow();
    if (procedure!._def.inputs.length === 0) expect(input).toBeUndefined();
  });

  it('names routes that exist, by their id, and only signed-in ones', () => {
    for (const id of Object.keys(PAGE_QUERIES)) {
      const route = (ROUTES as Record<string, { requiresAuth: boolean } | undefined>)[id];
      expect(route, `${id} is no route`).toBeDefined();
      expect(route!.requiresAuth, id).toBe(true);
    }
  });

  it("asks each query once: the frame's that the page asks too go with the page's", () => {
    const { frame, page } = firstQueries('projects', {});
    expect(page.map(([path]) => path)).toEqual(['projects.list', 'workspaces.list']);
    expect(frame.map(([path]) => path)).toEqual(['invites.mine', 'projects.getActive']);
    expect(firstQueries('identities', { project: PARAMS.project }).frame).toContainEqual(['projects.get', { projectId: PARAMS.project }]);
    expect(firstQueries('nowhere', {}).page).toEqual([]);
  });
});

describe('answers in the HTML', () => {
  it('cannot end their element, open a comment or break a line of script, and read back as they were', () => {
    const answers = [{ path: 'projects.list', data: [{ name: '</script><script>alert(1)</script><!-- & \u2028\u2029' }] }];
    const text = scriptJsonText(answers);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(answers);
  });
});
