import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Page tokens of relation-tuple lists, sealed as Keto seals its own (`secrets.pagination`): AES-256-GCM under
 * a key of this stack, bound to the project. A caller can neither read the position in the table a token
 * holds, nor forge one, nor use one project's token on another; a token from before a restart is refused.
 */
export interface PageTokens {
  seal(projectId: string, seq: number): string;
  /** The position a token holds; null when there is none; 'invalid' when this stack did not give it out for the project. */
  open(projectId: string, token: string | undefined): number | null | 'invalid';
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function createPageTokens(key: Buffer = randomBytes(32)): PageTokens {
  return {
    seal(projectId, seq) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(projectId));
      const sealed = Buffer.concat([cipher.update(String(seq), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
    },
    open(projectId, token) {
      if (token === undefined || token === '') return null;
      const raw = Buffer.from(token, 'base64url');
      if (raw.length <= IV_BYTES + TAG_BYTES || raw.length > 256) return 'invalid';
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(projectId));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
        return /^\d{1,15}$/.test(text) ? Number(text) : 'invalid';
      } catch {
        return 'invalid';
      }
    },
  };
}
