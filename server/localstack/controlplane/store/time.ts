/** Both drivers hand timestamptz back as Date; be tolerant of strings anyway. */
export function toIso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return new Date(String(value)).toISOString();
}

export const nowIso = (): string => new Date().toISOString();
