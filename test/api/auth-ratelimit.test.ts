import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../src/shared/messages.ts';
import type { TestApp } from '../helpers/app.ts';

// The per-client limit is read when the route table is built: set it before importing the app.
vi.stubEnv('RATE_LIMIT_SIGNIN_PER_MINUTE', '3');
const { createTestApp } = await import('../helpers/app.ts');

describe('per-client limit of the sign-in steps (RATE_LIMIT_SIGNIN_PER_MINUTE)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    vi.unstubAllEnvs();
  });

  it('answers 429 with the Spanish message once one client passes the limit', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 4; n += 1) {
      const response = await t.request({
        method: 'POST',
        url: '/api/auth/start',
        payload: { email: `nadie${n}@premios.test` },
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.json().error.message).toBe(MSG.tooManyRequests);
      }
    }
    expect(statuses).toEqual([404, 404, 404, 429]);
  });

  it('counts each step separately and each client separately', async () => {
    const code = await t.request({
      method: 'POST',
      url: '/api/auth/code',
      payload: { email: 'nadie@premios.test', code: '123456' },
    });
    expect(code.statusCode).toBe(400);
    const otherClient = await t.request({
      method: 'POST',
      url: '/api/auth/start',
      payload: { email: 'nadie@premios.test' },
      remoteAddress: '10.0.0.7',
    });
    expect(otherClient.statusCode).toBe(404);
  });

  it.each([
    ['POST', '/api/auth/code', { email: 'a@b.test', code: '123456' }],
    ['POST', '/api/auth/password', { email: 'a@b.test', password: 'x' }],
    ['POST', '/api/auth/password-reset', { email: 'a@b.test' }],
    [
      'POST',
      '/api/auth/password-reset/confirm',
      { oobCode: 'x', password: 'y', confirmPassword: 'y' },
    ],
    ['GET', '/api/admins/invitation?token=x', undefined],
    [
      'POST',
      '/api/admins/invitation',
      { token: 'x', fullName: 'x', password: 'y', confirmPassword: 'y' },
    ],
  ] as const)('limits %s %s', async (method, url, payload) => {
    const statuses: number[] = [];
    for (let n = 0; n < 5; n += 1) {
      const response = await t.request({
        method,
        url,
        remoteAddress: '10.9.9.9',
        ...(payload ? { payload } : {}),
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
