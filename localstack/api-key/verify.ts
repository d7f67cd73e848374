export * from '../kernel/api-key-verify';
