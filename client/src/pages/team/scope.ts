/** A project or a workspace, as the team procedures take it. */
export type TeamScope = { projectId: string } | { workspaceId: string };

/** The permission that lets the caller manage the team and keys of the scope (owners only). */
export const ownerPermission = (scope: TeamScope) => ('projectId' in scope ? 'backoffice.project.owner' : 'backoffice.workspace.owner');

export const scopeNoun = (scope: TeamScope) => ('projectId' in scope ? 'project' : 'workspace');
