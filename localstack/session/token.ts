export * from '../kernel/session-token';
