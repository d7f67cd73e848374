export type { Queryable } from '../db/types';
