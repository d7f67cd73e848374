import { describe, expect, it } from 'vitest';
import { matchRoute } from './first-queries';

describe('matchRoute', () => {
  const routes = [
    { id: 'create', pattern: '/projects/create' },
    { id: 'project', pattern: '/projects/:project' },
    { id: 'settings', pattern: '/projects/:project/settings' },
  ];

  it('answers the first route that matches, in the order given, with its parameters', () => {
    expect(matchRoute(routes, '/projects/create')).toEqual({ route: routes[0], params: {} });
    expect(matchRoute(routes, '/projects/abc')).toEqual({ route: routes[1], params: { project: 'abc' } });
    expect(matchRoute(routes, '/projects/abc/settings/')).toEqual({ route: routes[2], params: { project: 'abc' } });
    expect(matchRoute([...routes].reverse(), '/projects/create')?.route.id).toBe('project');
  });

  it('answers nothing for a path no route matches', () => {
    expect(matchRoute(routes, '/projects')).toBeUndefined();
    expect(matchRoute(routes, '/projects/abc/elsewhere')).toBeUndefined();
    expect(matchRoute([], '/')).toBeUndefined();
  });
});
