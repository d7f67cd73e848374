/**
 * Spec §6: the value of one permission check. It is false while the answer is not known yet and when
 * there is no project; otherwise the boolean the server gave for that permission (false if it gave none).
 */
export function permissionValue(
  projectId: string | null | undefined,
  answers: Readonly<Record<string, boolean>> | null | undefined,
  permission: string,
): boolean {
  if (!projectId || !answers) return false;
  return answers[permission] === true;
}
