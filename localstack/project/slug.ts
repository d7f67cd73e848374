import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { projects } from './schema';
import type { Queryable } from '../kernel/queryable';

const ADJECTIVES = [
  'admiring', 'amazing', 'awesome', 'blissful', 'bold', 'brave', 'charming', 'clever', 'compassionate',
  'confident', 'dazzling', 'determined', 'eager', 'ecstatic', 'elegant', 'epic', 'festive', 'focused',
  'friendly', 'gallant', 'gifted', 'gracious', 'happy', 'hopeful', 'inspiring', 'jolly', 'keen', 'kind',
  'laughing', 'lucid', 'magical', 'modest', 'nifty', 'nostalgic', 'optimistic', 'peaceful', 'practical',
  'quirky', 'relaxed', 'serene', 'sharp', 'stoic', 'tender', 'trusting', 'upbeat', 'vibrant', 'wizardly',
  'wonderful', 'youthful', 'zealous',
] as const;

const NOUNS = [
  'agnesi', 'babbage', 'bell', 'bohr', 'curie', 'darwin', 'dijkstra', 'einstein', 'euler', 'fermat',
  'feynman', 'gauss', 'goldberg', 'hamilton', 'hawking', 'hopper', 'hypatia', 'johnson', 'kepler', 'knuth',
  'lamarr', 'lovelace', 'meitner', 'mirzakhani', 'newton', 'noether', 'pascal', 'poincare', 'ritchie',
  'shannon', 'tesla', 'thompson', 'torvalds', 'turing', 'wilson', 'wozniak', 'yalow',
] as const;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

function pick<T>(list: readonly T[]): T {
  return list[randomInt(list.length)]!;
}

export function randomSlug(): string {
  let suffix = '';
  for (let i = 0; i < 8; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return `${pick(ADJECTIVES)}-${pick(NOUNS)}-${suffix}`;
}

/** A slug not yet used by any project (checked before insert so a transaction never aborts on it). */
export async function uniqueSlug(q: Queryable): Promise<string> {
  for (;;) {
    const slug = randomSlug();
    const taken = await q.orm.select({ id: projects.id }).from(projects).where(eq(projects.slug, slug));
    if (taken.length === 0) return slug;
  }
}
