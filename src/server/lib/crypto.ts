import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

/** An opaque URL-safe secret (sessions, invitation and reset links). */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** A 128-bit URL-safe secret, short enough for a link a voter may have to copy by hand. */
export const newLinkToken = (): string => randomBytes(16).toString('base64url');

/** Secrets are stored only as their SHA-256 digest. */
export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/** Six decimal digits from a CSPRNG, leading zeros kept. */
export const newAccessCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, '0');
