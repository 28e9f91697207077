import { hash, verify } from '@node-rs/argon2';
import { PASSWORD_MIN_LENGTH } from '../../shared/constants.ts';

/** argon2id with the library's defaults (OWASP's first choice). */
export const hashPassword = (password: string): Promise<string> => hash(password);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Passwords everyone tries first; refused even when long enough. */
const COMMON_PASSWORDS = new Set([
  '12345678',
  '123456789',
  '1234567890',
  '12345678910',
  '87654321',
  '11111111',
  '00000000',
  'password',
  'password1',
  'password123',
  'passw0rd',
  'contraseña',
  'contrasena',
  'contrasena1',
  'qwertyui',
  'qwerty123',
  'qwertyuiop',
  'asdfghjk',
  'iloveyou',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome1',
  'admin123',
  'administrator',
  'administrador',
  'letmein1',
  'abc12345',
  'abcd1234',
  '1q2w3e4r',
  '1qaz2wsx',
  'zaq12wsx',
  'trustno1',
  'superman',
  'dragon123',
  'premios1',
  'premios123',
  'bienvenido',
  'teamo123',
  'argentina',
  'mexico123',
  'colombia1',
]);

/** Too short, or one of the passwords everyone tries first. */
export function isWeakPassword(password: string): boolean {
  return password.length < PASSWORD_MIN_LENGTH || COMMON_PASSWORDS.has(password.toLowerCase());
}
