/**
 * The specification's two categories: what every new event starts with (docs/decisions/0034).
 * An event's own categories are data (event_categories); these addresses stay theirs.
 */
export const CATEGORIES = ['consumption', 'value'] as const;
export type Category = (typeof CATEGORIES)[number];

/** A category's address: one of the defaults or one made from a new category's name. */
export type CategoryAddress = string;

export const CATEGORY_LABELS: Record<Category, string> = {
  consumption: 'CONSUMO',
  value: 'VALOR AGREGADO',
};

/** How a category's votes count: 'place' = n + 1 − rank of n nominees; 'one' = 1 each. */
export const CATEGORY_SCORINGS = ['place', 'one'] as const;
export type CategoryScoring = (typeof CATEGORY_SCORINGS)[number];

/** The specification's limit, the default categories' "Nominaciones por expositor". */
export const MAX_NOMINEES_PER_CATEGORY = 5;
/** The most any category may ask for; nominee_totals counts places 1 to this. */
export const MAX_CATEGORY_NOMINEE_LIMIT = 10;
export const MIN_CATEGORIES_PER_EVENT = 1;
export const MAX_CATEGORIES_PER_EVENT = 10;

/** What a vote at `place` (1 = first) is worth in a category of `limit` nominees and `scoring`. */
export const pointsOfVote = (place: number, limit: number, scoring: CategoryScoring): number =>
  scoring === 'one' ? 1 : limit + 1 - place;

/** Points of a vote in a default category: 6 minus its order (1st = 5 points … 5th = 1 point). */
export const POINTS_BASE = 6;
/** What a vote at `place` (1 = first) is worth in a default category. */
export const pointsForPlace = (place: number): number => POINTS_BASE - place;

/** An exhibitor's receipt goes out once their lists have not changed for this long. */
export const RECEIPT_QUIET_MINUTES = 10;

export const ACCESS_CODE_LENGTH = 6;
export const ACCESS_CODE_TTL_MINUTES = 15;

export const ADMIN_INVITATION_TTL_DAYS = 7;
export const PASSWORD_RESET_TTL_MINUTES = 60;
export const PASSWORD_MIN_LENGTH = 8;

export const SESSION_IDLE_HOURS = 12;
export const SESSION_ABSOLUTE_DAYS = 7;
export const SESSION_COOKIE = 'premios_session';
export const CURRENT_USER_COOKIE = 'currentUser';
/** The pending sign-in between an administrator's password and their second factor. */
export const MFA_CHALLENGE_COOKIE = 'premios_mfa';
export const MFA_CHALLENGE_TTL_MINUTES = 10;
/**
 * The browser's long-lived random id, set at an exhibitor's code or link sign-in, by which
 * "Mismo dispositivo" recognises one browser (docs/decisions/0035).
 */
export const DEVICE_COOKIE = 'premios_device';
/** 400 days: the longest a browser keeps a cookie. */
export const DEVICE_COOKIE_DAYS = 400;
/** The emailed code that an administrator types to enrol a second factor. */
export const MFA_ENROL_CODE_TTL_MINUTES = 15;
export const RECOVERY_CODE_COUNT = 10;

export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

export type Role = 'admin' | 'exh';
