export * from '../kernel/api-key-secret';
