import type { ThrottleRule, TryRules } from '../../lib/throttle.ts';

/*
 * The sign-in limits and their figures; docs/decisions/0004-sign-in-that-cannot-be-blocked.md
 * explains how they were chosen. Keys: the account (exhibitor or administrator id), or the
 * account and the client address as the app sees it (`request.ip`, which honours TRUST_PROXY).
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Codes one client can have sent to one address: 3 per hour, and none within 30 s of the previous
 * one (the last one is on its way). One counter for both, so the email step counts one row.
 */
export const codeSendPerClient: ThrottleRule = {
  scope: 'code-send-client',
  windowMs: HOUR,
  max: 3,
  delayAfter: () => 30 * SECOND,
};
/**
 * Codes one address can receive per hour, from every client together: bounds the mail a stranger
 * can cause and the codes alive at once (at most twice this across a window boundary).
 */
export const codeSendPerAddress: ThrottleRule = {
  scope: 'code-send-address',
  windowMs: HOUR,
  max: 6,
};
/** Code tries one client can make for one address per hour (typing mistakes included). */
export const codeTryPerClient: ThrottleRule = { scope: 'code-try-client', windowMs: HOUR, max: 5 };
/** Code tries evaluated for one address per day, from every client together: bounds guessing. */
export const codeTryPerAddress: ThrottleRule = {
  scope: 'code-try-address',
  windowMs: 24 * HOUR,
  max: 15,
};
/**
 * Past the daily cap, a client that has not tried a code for that address in the last hour may
 * still have its first try evaluated, this many times a day per address (so the voter's own
 * device gets in while a guesser is refused, and guessing stays bounded).
 */
export const codeTryGrace: ThrottleRule = { scope: 'code-try-grace', windowMs: 24 * HOUR, max: 5 };

export const codeTries: TryRules = {
  perClient: codeTryPerClient,
  perSubject: codeTryPerAddress,
  grace: codeTryGrace,
};

/**
 * Password tries of one client on one account: 5 in a row freely, then each one waits twice as
 * long as the previous (1 s, 2 s, 4 s … up to 15 minutes); a correct password starts over.
 */
export const passwordTryPerClient: ThrottleRule = {
  scope: 'password-try-client',
  windowMs: 24 * HOUR,
  max: 200,
  delayAfter: (hits) => (hits < 5 ? 0 : Math.min(2 ** (hits - 5), 15 * 60) * SECOND),
};
/** Password tries evaluated per account per hour, from every client together (ASVS: ≤ 100). */
export const passwordTryPerAccount: ThrottleRule = {
  scope: 'password-try-account',
  windowMs: HOUR,
  max: 100,
};
/** Past the hourly ceiling, first tries of clients that have not been guessing, per hour. */
export const passwordTryGrace: ThrottleRule = {
  scope: 'password-try-grace',
  windowMs: HOUR,
  max: 10,
};

export const passwordTries: TryRules = {
  perClient: passwordTryPerClient,
  perSubject: passwordTryPerAccount,
  grace: passwordTryGrace,
};

export const passwordScopes = [
  passwordTryPerClient.scope,
  passwordTryPerAccount.scope,
  passwordTryGrace.scope,
];

/**
 * Second-factor tries (TOTP or recovery code) of one client on one account, counted like passwords:
 * 5 in a row freely, then a doubling wait up to 15 minutes; a right code starts over.
 */
export const mfaTryPerClient: ThrottleRule = {
  scope: 'mfa-try-client',
  windowMs: 24 * HOUR,
  max: 200,
  delayAfter: (hits) => (hits < 5 ? 0 : Math.min(2 ** (hits - 5), 15 * 60) * SECOND),
};
/**
 * Second-factor tries evaluated per account per hour, from every client together: three codes of
 * a million are good at any instant, so 30 an hour keeps a guess near one in ten thousand a day.
 */
export const mfaTryPerAccount: ThrottleRule = { scope: 'mfa-try-account', windowMs: HOUR, max: 30 };
/** Past the hourly ceiling, first tries of clients that have not been guessing, per hour. */
export const mfaTryGrace: ThrottleRule = { scope: 'mfa-try-grace', windowMs: HOUR, max: 10 };

export const mfaTries: TryRules = {
  perClient: mfaTryPerClient,
  perSubject: mfaTryPerAccount,
  grace: mfaTryGrace,
};

/** Codes emailed to enrol a second factor: a few an hour per administrator (mailbox flooding). */
export const mfaEnrolCodeSend: ThrottleRule = {
  scope: 'mfa-enrol-code-send',
  windowMs: HOUR,
  max: 5,
};

export const mfaScopes = [mfaTryPerClient.scope, mfaTryPerAccount.scope, mfaTryGrace.scope];
