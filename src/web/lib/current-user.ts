import { CURRENT_USER_COOKIE } from '../../shared/constants.ts';
import type { CurrentUser } from '../../shared/schemas/session.ts';

/**
 * The display-only `currentUser` cookie, read for the first paint so that
 * screens do not wait for /api/session. It grants nothing: the API decides on every call, and the
 * session's answer replaces this guess as soon as it arrives. Apart from ./session.ts, which
 * loads TanStack Query: the exhibitor's screens read it without it.
 */
export function currentUserFromCookie(cookies: string = document.cookie): CurrentUser | null {
  const raw = cookies
    .split('; ')
    .find((part) => part.startsWith(`${CURRENT_USER_COOKIE}=`))
    ?.slice(CURRENT_USER_COOKIE.length + 1);
  if (!raw) return null;
  try {
    // Checked by hand rather than with the session's Zod schema: this runs before the first
    // paint of screens that do not load Zod.
    const value: unknown = JSON.parse(decodeURIComponent(raw));
    return typeof value === 'object' &&
      value !== null &&
      'role' in value &&
      'email' in value &&
      'fullName' in value &&
      (value.role === 'admin' || value.role === 'exh') &&
      typeof value.email === 'string' &&
      typeof value.fullName === 'string'
      ? { role: value.role, email: value.email, fullName: value.fullName }
      : null;
  } catch {
    return null;
  }
}
