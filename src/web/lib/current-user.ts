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
    const value = JSON.parse(decodeURIComponent(raw)) as Partial<CurrentUser>;
    return (value.role === 'admin' || value.role === 'exh') &&
      typeof value.email === 'string' &&
      typeof value.fullName === 'string'
      ? { role: value.role, email: value.email, fullName: value.fullName }
      : null;
  } catch {
    return null;
  }
}
