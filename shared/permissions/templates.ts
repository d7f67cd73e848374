/**
 * Permission rules to start from (the console offers them as templates; the tests use them): Ory Keto's
 * documented examples.
 */

/** Files and folders: viewers inherit through parents, owners through groups (Keto's rewrites example). */
export const DOCUMENTS_AND_FOLDERS = `import { Namespace, SubjectSet, Context } from "@ory/keto-namespace-types"

class User implements Namespace {
  related: {
    manager: User[]
  }
}

class Group implements Namespace {
  related: {
    members: (User | Group)[]
  }
}

class Folder implements Namespace {
  related: {
    parents: (File | Folder)[]
    viewers: SubjectSet<Group, "members">[]
  }

  permits = {
    view: (ctx: Context): boolean =>
      this.related.viewers.includes(ctx.subject) ||
      this.related.parents.traverse((p) => p.permits.view(ctx)),
  }
}

class File implements Namespace {
  related: {
    parents: (File | Folder)[]
    viewers: (User | SubjectSet<Group, "members">)[]
    owners: (User | SubjectSet<Group, "members">)[]
  }

  permits = {
    view: (ctx: Context): boolean =>
      this.related.parents.traverse((p) => p.permits.view(ctx)) ||
      this.related.viewers.includes(ctx.subject) ||
      this.related.owners.includes(ctx.subject),

    edit: (ctx: Context) => this.related.owners.includes(ctx.subject),
  }
}
`;

/** Organizations and teams: members of a team belong to its organization; admins may manage, banned users may not. */
export const ORGANIZATIONS_AND_TEAMS = `import { Namespace, SubjectSet, Context } from "@ory/keto-namespace-types"

class User implements Namespace {}

class Team implements Namespace {
  related: {
    members: (User | SubjectSet<Team, "members">)[]
    organization: Organization[]
  }
}

class Organization implements Namespace {
  related: {
    admins: User[]
    members: (User | SubjectSet<Team, "members">)[]
    banned: User[]
  }

  permits = {
    view: (ctx: Context): boolean =>
      (this.related.members.includes(ctx.subject) || this.permits.manage(ctx)) &&
      !this.related.banned.includes(ctx.subject),
    manage: (ctx: Context): boolean =>
      this.related.admins.includes(ctx.subject) && !this.related.banned.includes(ctx.subject),
  }
}
`;
