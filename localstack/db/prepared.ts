export * from '../kernel/prepared';
