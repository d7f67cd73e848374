import { describe, expect, it } from 'vitest';
import { assertRequiredParams, RequiredParameterError } from './required-param';

describe('assertRequiredParams', () => {
  it.each([
    ['getWorkspace', { workspace: undefined }, 'workspace'],
    ['getSubscription', { subscriptionId: null }, 'subscriptionId'],
    ['getProject', { projectId: undefined }, 'projectId'],
    ['acceptInvite', { invite: null }, 'invite'],
    ['getOrganization', { projectId: 'p', organizationId: undefined }, 'organizationId'],
    ['removeProjectMember', { project: null, member: null }, 'project'],
    ['removeProjectMember', { project: 'p', member: null }, 'member'],
  ])('%s with %j fails naming %s', (operation, params, parameter) => {
    const call = () => assertRequiredParams(operation, params);
    expect(call).toThrow(RequiredParameterError);
    try {
      call();
    } catch (error) {
      expect((error as Error).message).toBe(
        `Required parameter ${parameter} was null or undefined when calling ${operation}`,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ parameter, operation, name: 'RequiredParameterError' });
    }
  });

  it.each([
    ['no parameters', {}],
    ['present values', { workspace: 'w', projectId: 'p' }],
    ['empty string, zero and false', { a: '', b: 0, c: false }],
  ])('accepts %s', (_name, params) => {
    expect(() => assertRequiredParams('op', params)).not.toThrow();
  });

  it('narrows the types of the parameters', () => {
    const params: { workspace: string | undefined } = { workspace: 'w' };
    assertRequiredParams('getWorkspace', params);
    const workspace: string = params.workspace;
    expect(workspace).toBe('w');
  });
});
