import { afterAll, describe, expect, it, vi } from 'vitest';
import { acceptInvitation, getInvitation } from '../../src/shared/api/admins.ts';
import {
  confirmPasswordReset,
  requestPasswordReset,
  signInWithCode,
  signInWithPassword,
  startSignIn,
} from '../../src/shared/api/auth.ts';
import { MSG } from '../../src/shared/messages.ts';

// The per-client limit is read when the route table is built: set it before importing the app.
vi.stubEnv('RATE_LIMIT_SIGNIN_PER_MINUTE', '3');
const { useTestApp } = await import('../helpers/api-fixture.ts');

describe('per-client limit of the sign-in steps (RATE_LIMIT_SIGNIN_PER_MINUTE)', () => {
  const app = useTestApp({ freshEachTest: false });
  afterAll(() => vi.unstubAllEnvs());

  it('answers 429 with the Spanish message once one client passes the limit', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 4; n += 1) {
      const outcome = await app.signedOut.send(startSignIn, {
        body: { email: `nadie${n}@premios.test` },
      });
      statuses.push(outcome.status);
      if (outcome.status === 429 && !outcome.ok) {
        expect(outcome.message).toBe(MSG.tooManyRequests);
      }
    }
    expect(statuses).toEqual([404, 404, 404, 429]);
  });

  it('counts each step separately and each client separately', async () => {
    const code = await app.signedOut.fail(signInWithCode, {
      body: { email: 'nadie@premios.test', code: '123456' },
    });
    expect(code.status).toBe(400);
    const otherClient = await app.signedOut.fail(
      startSignIn,
      { body: { email: 'nadie@premios.test' } },
      { remoteAddress: '10.0.0.7' },
    );
    expect(otherClient.status).toBe(404);
  });

  const fromClient = { remoteAddress: '10.9.9.9' };
  it.each([
    [
      'POST /api/auth/code',
      () =>
        app.signedOut.send(
          signInWithCode,
          { body: { email: 'a@b.test', code: '123456' } },
          fromClient,
        ),
    ],
    [
      'POST /api/auth/password',
      () =>
        app.signedOut.send(
          signInWithPassword,
          { body: { email: 'a@b.test', password: 'x' } },
          fromClient,
        ),
    ],
    [
      'POST /api/auth/password-reset',
      () => app.signedOut.send(requestPasswordReset, { body: { email: 'a@b.test' } }, fromClient),
    ],
    [
      'POST /api/auth/password-reset/confirm',
      () =>
        app.signedOut.send(
          confirmPasswordReset,
          { body: { oobCode: 'x', password: 'y', confirmPassword: 'y' } },
          fromClient,
        ),
    ],
    [
      'GET /api/admins/invitation?token=x',
      () => app.signedOut.send(getInvitation, { query: { token: 'x' } }, fromClient),
    ],
    [
      'POST /api/admins/invitation',
      () =>
        app.signedOut.send(
          acceptInvitation,
          { body: { token: 'x', fullName: 'x', password: 'y', confirmPassword: 'y' } },
          fromClient,
        ),
    ],
  ] as const)('limits %s', async (_name, send) => {
    const statuses: number[] = [];
    for (let n = 0; n < 5; n += 1) statuses.push((await send()).status);
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
