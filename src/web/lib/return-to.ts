/*
 * Where an exhibitor returns after signing in: a link from a mail (`/exh/event/{id}`) opened while
 * signed out goes through `/signin?next=…` and back to that event. Only paths of the exhibitor's
 * area are followed, never another origin (`//host`, `https:`, `/\host`): no open redirect.
 * The path is kept in localStorage for the code's life, so the code email's one-time link, which
 * opens in another tab, returns there too.
 */

const STORAGE_KEY = 'premios.returnTo';
/** As long as the emailed code and link are valid. */
const KEEP_MS = 15 * 60_000;
const SAFE_PATH = /^\/exh\/[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*(?:\?[A-Za-z0-9=&_-]*)?$/;

/** `raw` if it is a path of the exhibitor's area (`/exh/…`), else null. */
export function safeReturnPath(raw: unknown): string | null {
  return typeof raw === 'string' && SAFE_PATH.test(raw) ? raw : null;
}

/** The sign-in address that returns to `path` afterwards (or plain `/signin` for any other). */
export function signInReturningTo(path: string): string {
  const safe = safeReturnPath(path);
  return safe ? `/signin?next=${encodeURIComponent(safe)}` : '/signin';
}

/** Called on the email step: remembers `next` (forgets any older one when there is none). */
export function rememberReturnPath(next: string | null, now = Date.now()): void {
  try {
    const path = safeReturnPath(next);
    if (path) localStorage.setItem(STORAGE_KEY, JSON.stringify({ path, at: now }));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage refused (private mode): the exhibitor lands on their events instead.
  }
}

/** Called once signed in: the remembered path if still fresh and safe, forgotten either way. */
export function takeReturnPath(now = Date.now()): string | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    localStorage.removeItem(STORAGE_KEY);
    if (!raw) return null;
    const stored: unknown = JSON.parse(raw);
    if (typeof stored !== 'object' || stored === null || !('path' in stored) || !('at' in stored)) {
      return null;
    }
    const { path, at } = stored;
    if (typeof at !== 'number' || now - at > KEEP_MS || now < at) return null;
    return safeReturnPath(path);
  } catch {
    return null;
  }
}

/** Navigation state of the first screen after signing in: `/exh` then opens a lone event. */
export const AFTER_SIGN_IN = { afterSignIn: true } as const;

export const cameFromSignIn = (state: unknown): boolean =>
  (state as { afterSignIn?: unknown } | null)?.afterSignIn === true;
