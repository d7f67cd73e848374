import type { Environment } from '../../../../shared/schemas/common';

export const ENVIRONMENT_LABELS: Record<Environment, string> = {
  prod: 'Production',
  stage: 'Staging',
  dev: 'Development',
};

export const ENVIRONMENT_OPTIONS = (Object.keys(ENVIRONMENT_LABELS) as Environment[]).map((value) => ({
  value,
  label: ENVIRONMENT_LABELS[value],
}));

export function environmentLabel(value: string): string {
  return value in ENVIRONMENT_LABELS ? ENVIRONMENT_LABELS[value as Environment] : value;
}
