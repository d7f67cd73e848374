import { describe, expect, it } from 'vitest';
import { environmentConfirmation, isRiskyEnvironmentChange, projectSavedMessage, projectSettingsSchema } from './project-settings-form';

describe('project settings form', () => {
  it('validates with the procedures\' schemas (trimmed name, known environment)', () => {
    expect(projectSettingsSchema.parse({ name: '  Alpha ', environment: 'dev' })).toEqual({ name: 'Alpha', environment: 'dev' });
    expect(projectSettingsSchema.safeParse({ name: '', environment: 'dev' }).success).toBe(false);
    expect(projectSettingsSchema.safeParse({ name: 'x'.repeat(256), environment: 'dev' }).success).toBe(false);
    expect(projectSettingsSchema.safeParse({ name: 'A', environment: 'qa' }).success).toBe(false);
  });

  it('asks before a production project leaves production, and only then', () => {
    expect(isRiskyEnvironmentChange('prod', 'dev')).toBe(true);
    expect(isRiskyEnvironmentChange('prod', 'stage')).toBe(true);
    expect(isRiskyEnvironmentChange('dev', 'prod')).toBe(false);
    expect(isRiskyEnvironmentChange('stage', 'dev')).toBe(false);
    expect(environmentConfirmation('Alpha', 'prod', 'dev')?.confirmLabel).toBe('Switch to Development');
    expect(environmentConfirmation('Alpha', 'dev', 'stage')).toBeUndefined();
  });

  it('names what was saved', () => {
    expect(projectSavedMessage({ name: 'B' })).toBe('Project renamed');
    expect(projectSavedMessage({ environment: 'dev' })).toBe('Environment updated');
    expect(projectSavedMessage({ name: 'B', environment: 'dev' })).toBe('Project settings saved');
  });
});
