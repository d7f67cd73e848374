import { describe, expect, it } from 'vitest';
import { permissionValue } from './permissions';

const answers = { 'backoffice.project.read': true, 'backoffice.project.delete': false };

describe('permissionValue', () => {
  it.each([
    ['p1', answers, 'backoffice.project.read', true],
    ['p1', answers, 'backoffice.project.delete', false],
    ['p1', answers, 'backoffice.project.write', false],
    ['p1', undefined, 'backoffice.project.read', false],
    ['p1', null, 'backoffice.project.read', false],
    [undefined, answers, 'backoffice.project.read', false],
    [null, answers, 'backoffice.project.read', false],
    ['', answers, 'backoffice.project.read', false],
    ['p1', { 'backoffice.project.read': 'true' as unknown as boolean }, 'backoffice.project.read', false],
  ])('project %j, answers %j, %s → %s', (projectId, given, permission, expected) => {
    expect(permissionValue(projectId, given, permission)).toBe(expected);
  });
});
