import { z } from 'zod';
import type { Environment } from '../../../../shared/schemas/common';
import { setProjectEnvironmentInput, updateProjectInput } from '../../../../shared/schemas/project';
import type { SaveConfirmation } from '../../components/SettingsForm';
import { environmentLabel } from './environment';

/** The project settings form: the procedures' own field schemas (projects.update and projects.setEnvironment). */
export const projectSettingsSchema = z.object({
  name: updateProjectInput.shape.name,
  environment: setProjectEnvironmentInput.shape.environment,
});
export type ProjectSettingsValues = z.infer<typeof projectSettingsSchema>;

export const PROJECT_CONFLICT_MESSAGE =
  'This project was changed somewhere else while you were editing. We loaded the latest version: check your changes and save again.';

/** Leaving production is the risky move: limits and guarantees change for live users. */
export function isRiskyEnvironmentChange(from: Environment, to: Environment): boolean {
  return from === 'prod' && to !== 'prod';
}

export function environmentConfirmation(name: string, from: Environment, to: Environment): SaveConfirmation | undefined {
  if (!isRiskyEnvironmentChange(from, to)) return undefined;
  return {
    title: `Switch to ${environmentLabel(to)}?`,
    message: `${name} is a ${environmentLabel(from)} project. As a ${environmentLabel(to)} project it gets the limits of that environment, which may affect the users signing in to it now.`,
    confirmLabel: `Switch to ${environmentLabel(to)}`,
  };
}

/** The success toast for what was saved. */
export function projectSavedMessage(changes: Partial<ProjectSettingsValues>): string {
  if (changes.name !== undefined && changes.environment !== undefined) return 'Project settings saved';
  return changes.name !== undefined ? 'Project renamed' : 'Environment updated';
}
