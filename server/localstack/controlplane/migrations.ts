/** Control-plane tables of the local stack, applied after the identity migrations. */
export const controlPlaneMigrations: { id: string; sql: string }[] = [];
