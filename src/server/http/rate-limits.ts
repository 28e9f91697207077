import { signInRateLimitPerMinute } from '../config.ts';

/**
 * Per-client limit of every sign-in step (email, code, link, password, second factor,
 * registration), against guessing from one machine; the per-address limits live in the auth
 * service. Read when the route table is built: see README's configuration.
 */
export const signInStepLimit = {
  rateLimit: { max: signInRateLimitPerMinute(), timeWindow: '1 minute' },
};
