/** Argon2id cost; production defaults follow OWASP's memory-hard recommendation. */
export interface HashOptions {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export const DEFAULT_HASH_OPTIONS: HashOptions = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
