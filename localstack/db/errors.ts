export * from '../kernel/db-errors';
