import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/server/lib/crypto.ts';
import type { Route } from '../../src/server/http/route.ts';
import { apiRoutes } from '../../src/server/modules/index.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { Session } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedExhibitor } from '../helpers/seed.ts';

/** A concrete URL for a route pattern: every path parameter gets a fresh id. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, () => newId());

const guarded = apiRoutes.filter((route) => route.access !== 'public');
/** Routes of one role: the other role is refused. */
const roleOnly = guarded.filter(
  (route) => route.access === 'admin' || route.access === 'exhibitor',
);
const label = (route: Route) => `${route.method} ${route.url} (${route.access})`;

describe('access on every API route (walks the route table)', () => {
  // Every route, walked from the server's route table with an empty body: literal requests on
  // purpose, since most of them send what the contract forbids.
  const app = useTestApp();
  let asExhibitor: Session;
  beforeAll(async () => {
    asExhibitor = await app.t.signIn({
      role: 'exh',
      exhibitorId: (await seedExhibitor(app.db)).id,
    });
  });

  const call = (route: Route, as?: Session) =>
    app.t.request({
      method: route.method,
      url: concrete(route.url),
      ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      ...(as ? { as } : {}),
    });

  it('has guarded routes of both roles, including administrator registration', () => {
    expect(guarded.some((r) => r.method === 'POST' && r.url === '/api/admins')).toBe(true);
    expect(guarded.map((r) => r.access)).toContain('admin');
  });

  it.each(guarded.map((route) => [label(route), route] as const))(
    '%s answers 401 without a session',
    async (_name, route) => {
      const anonymous = await call(route);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({
        error: { code: 'not_signed_in', message: MSG.notSignedIn },
      });
    },
  );

  it.each(roleOnly.map((route) => [label(route), route] as const))(
    '%s answers 401 without a session and 403 for the other role',
    async (_name, route) => {
      const anonymous = await call(route);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({
        error: { code: 'not_signed_in', message: MSG.notSignedIn },
      });
      const wrongRole = await call(route, route.access === 'admin' ? asExhibitor : app.as);
      expect(wrongRole.statusCode).toBe(403);
      expect(wrongRole.json()).toEqual({ error: { code: 'forbidden', message: MSG.forbidden } });
    },
  );

  it.each(
    apiRoutes
      .filter((route) => route.method !== 'GET')
      .map((route) => [label(route), route] as const),
  )('%s refuses a state-changing call without the CSRF header', async (_name, route) => {
    const session = route.access === 'exhibitor' ? asExhibitor : app.as;
    const response = await app.t.app.inject({
      method: route.method,
      url: concrete(route.url),
      headers: { cookie: session.cookie },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe(MSG.csrfRejected);
  });

  it('treats an expired or unknown session token as no session', async () => {
    const route = guarded[0]!;
    const forged = await call(route, { token: 'x', cookie: 'premios_session=inventado' });
    expect(forged.statusCode).toBe(401);
  });
});
