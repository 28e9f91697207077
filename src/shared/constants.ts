export const CATEGORIES = ['consumption', 'value'] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  consumption: 'CONSUMO',
  value: 'VALOR AGREGADO',
};

export const MAX_NOMINEES_PER_CATEGORY = 5;
/** Points of a vote: 6 minus its order (1st = 5 points … 5th = 1 point). */
export const POINTS_BASE = 6;
/** What a vote at `place` (1 = first) is worth. */
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
