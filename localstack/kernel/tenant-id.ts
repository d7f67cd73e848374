/**
 * The network id (Kratos' `nid`) of the console's own tenant: the identities that sign in to the console.
 * A project's tenant uses the project's id. Rows that existed before tenancy belong to this tenant.
 */
export const CONSOLE_NID = '00000000-0000-4000-8000-000000000c01';
