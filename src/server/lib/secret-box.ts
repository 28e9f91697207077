import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Encrypts short secrets for storage: AES-256-GCM, a fresh 96-bit IV per value. */
export interface SecretBox {
  seal(plain: string): string;
  /** Throws when the value was not sealed with this key or was altered. */
  open(sealed: string): string;
}

const VERSION = 'v1';

/** The box for a key string (SECRET_KEY or the generated one); the AES key is derived by HKDF. */
export function secretBox(secret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secret, 'premios', 'stored secrets', 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) {
        throw new Error('not a sealed secret');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

export const SECRET_KEY_FILE = 'secret-key';

/**
 * The key string for stored secrets: SECRET_KEY when set; otherwise, on SQLite (one machine, one
 * data folder), a random key generated once into `DATA_DIR/secret-key` (mode 600) and read from
 * there afterwards; on PostgreSQL without SECRET_KEY, null (instances must share one key, so none
 * invents its own).
 */
export function resolveSecretKey(
  config: { secretKey: string | undefined; dataDir: string },
  engine: 'sqlite' | 'postgres',
): string | null {
  if (config.secretKey) return config.secretKey;
  if (engine !== 'sqlite') return null;
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    // `wx`: two processes starting together cannot both write; the loser reads the winner's key.
    fs.writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, {
      flag: 'wx',
      mode: 0o600,
    });
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
  }
  return fs.readFileSync(file, 'utf8').trim();
}
