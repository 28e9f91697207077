/**
 * The contract between server and web: the server registers exactly the endpoints of the
 * contract, the OpenAPI document describes each with its success answer, answers leave only
 * through their response schema, and every JSON route refuses a value of the wrong kind with a
 * Spanish message that names the problem.
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { implement } from '../../src/server/http/route.ts';
import { apiRoutes } from '../../src/server/modules/index.ts';
import { defineEndpoint, json } from '../../src/shared/api/define.ts';
import { ALL_ENDPOINTS } from '../../src/shared/api/index.ts';
import { manual, XLSX_MEDIA_TYPE } from '../../src/shared/api/results.ts';
import { MSG } from '../../src/shared/messages.ts';
import { currentUserSchema } from '../../src/shared/schemas/session.ts';
import type { Session } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, errorOf, failureOf, refused } from '../helpers/client.ts';
import { seedExhibitor } from '../helpers/seed.ts';

const leaky = defineEndpoint({
  method: 'GET',
  path: '/api/test/leaky',
  access: 'public',
  summary: 'test only: returns more than its contract names',
  response: json(z.object({ user: currentUserSchema })),
  errors: [],
});

const offContract = defineEndpoint({
  method: 'GET',
  path: '/api/test/off-contract',
  access: 'public',
  summary: 'test only: returns a value its schema refuses',
  response: json(z.object({ count: z.number().int() })),
  errors: [],
});

const storedAdmin = {
  role: 'admin' as const,
  email: 'ana@premios.test',
  fullName: 'Ana',
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$secreto',
  adminId: 'interno-123',
};

/** What this test reads of the OpenAPI document (a route outside the contract it describes). */
const openApiDocument = z.object({
  openapi: z.string(),
  paths: z.record(
    z.string(),
    z.record(
      z.string(),
      z.object({
        responses: z.record(
          z.string(),
          z.object({
            content: z.record(z.string(), z.object({ schema: z.unknown() })).optional(),
          }),
        ),
      }),
    ),
  ),
});

/** The top-level properties of a body's JSON Schema, with their types. */
const jsonSchemaProperties = z.object({
  properties: z.record(z.string(), z.object({ type: z.string().optional() })).optional(),
});

describe('the contract', () => {
  const app = useTestApp({
    routes: [
      implement(leaky, async () => ({ user: storedAdmin })),
      implement(offContract, async () => ({ count: 1.5 })),
    ],
  });
  let asExhibitor: Session;
  beforeAll(async () => {
    asExhibitor = await app.t.signIn({
      role: 'exh',
      exhibitorId: (await seedExhibitor(app.db)).id,
    });
  });

  it('is what the server registers: every endpoint once, nothing else', () => {
    const registered = apiRoutes.map((route) => route.endpoint);
    expect(new Set(registered).size).toBe(registered.length);
    expect(registered).toHaveLength(ALL_ENDPOINTS.length);
    for (const endpoint of ALL_ENDPOINTS) expect(registered).toContain(endpoint);
  });

  it('is described in /api/openapi.json: every registered route with its 2xx schema', async () => {
    const { t } = app;
    const response = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = openApiDocument.parse(response.json());
    expect(doc.openapi).toBe('3.1.0');
    for (const route of t.routes) {
      const path = route.url.replace(/:([A-Za-z]+)/g, '{$1}');
      const operation = doc.paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.url}`).toBeDefined();
      const success = Object.entries(operation?.responses ?? {}).filter(([status]) =>
        status.startsWith('2'),
      );
      expect(success, `${route.method} ${route.url}`).toHaveLength(1);
      const content = success[0]?.[1].content ?? {};
      const mediaType =
        route.endpoint.response.kind === 'json'
          ? 'application/json'
          : route.endpoint.response.mediaType;
      expect(content[mediaType]?.schema, `${route.method} ${route.url}`).toBeTruthy();
    }
    const exportRanking = doc.paths['/api/events/{eventId}/ranking/{category}/export']?.get;
    expect(exportRanking?.responses['200']?.content?.[XLSX_MEDIA_TYPE]?.schema).toEqual({
      type: 'string',
      format: 'binary',
    });
    const createEvent = doc.paths['/api/events']?.post;
    expect(Object.keys(createEvent?.responses ?? {})).toContain('201');
  });

  it('serves /api/docs with Swagger UI, and only its own files from the viewer package', async () => {
    const { t } = app;
    const page = await t.request({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('/api/docs/assets/swagger-ui-bundle.js');
    const bundle = await t.request({ method: 'GET', url: '/api/docs/assets/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    const start = await t.request({ method: 'GET', url: '/api/docs/start.js' });
    expect(start.statusCode).toBe(200);
    expect(start.body).toContain("url: '/api/openapi.json'");
    const other = await t.request({ method: 'GET', url: '/api/docs/assets/package.json' });
    expect(other.statusCode).toBe(404);
  });

  it('serialises answers through the response schema: a field it does not name never leaves', async () => {
    const answer = answered(await app.signedOut.send(leaky, {}));
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({
      user: { role: 'admin', email: 'ana@premios.test', fullName: 'Ana' },
    });
    // What travelled, not what the client's parse kept.
    const { body } = answer.response;
    expect(JSON.parse(body)).toEqual(answer.data);
    expect(body).not.toContain('passwordHash');
    expect(body).not.toContain('argon2');
    expect(body).not.toContain('interno-123');
  });

  it('answers 500 (not a half-checked answer) when a handler breaks its contract', async () => {
    const response = refused(await app.signedOut.send(offContract, {}));
    expect(response.status).toBe(500);
    expect(errorOf(response)).toEqual({ code: 'internal_error', message: MSG.genericError });
  });

  it('serves the manual to any signed-in user and to nobody else', async () => {
    const nobody = await app.signedOut.fail(manual, {});
    expect(nobody.status).toBe(401);
    expect(errorOf(nobody)).toEqual({ code: 'not_signed_in', message: MSG.notSignedIn });
    for (const as of [app.as, asExhibitor]) {
      const response = answered(await app.client(as).send(manual, {}));
      expect(response.status).toBe(200);
      expect(response.response.headers['content-type']).toBe('application/pdf');
      expect(response.data.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  describe('values of the wrong kind, on every JSON route of the contract', () => {
    const jsonRoutes = apiRoutes.filter((route) => route.body !== undefined);
    const concrete = (url: string) =>
      url
        .replace(':eventId', '0b9f2c4e-8a1d-4c3e-9f00-000000000001')
        .replace(':exhibitorId', '0b9f2c4e-8a1d-4c3e-9f00-000000000002')
        .replace(':category', 'consumption')
        .replace(':fiscalId', '30111111')
        .replace(':order', '1');
    const sessionFor = (access: string) =>
      access === 'admin' ? { as: app.as } : access === 'exhibitor' ? { as: asExhibitor } : {};

    async function stored() {
      const counts: Record<string, unknown> = {};
      for (const table of ['admins', 'events', 'exhibitors', 'nominations', 'mail_outbox']) {
        const result = await sql<{
          n: number;
        }>`select count(*) as n from ${sql.table(table)}`.execute(app.db);
        counts[table] = Number(result.rows[0]?.n);
      }
      return counts;
    }

    it('covers the JSON routes', () => {
      expect(jsonRoutes.length).toBeGreaterThan(10);
    });

    it.each(jsonRoutes.map((route) => [`${route.method} ${route.url}`, route] as const))(
      '%s',
      async (_name, route) => {
        const before = await stored();
        const send = (payload: unknown) =>
          app.t.request({
            method: route.method,
            url: concrete(route.url),
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify(payload),
            ...sessionFor(route.access),
          });

        for (const payload of [[], [{ email: 'a@b.test' }], 'texto', 42, null]) {
          const response = failureOf(await send(payload));
          expect(response.status, JSON.stringify(payload)).toBe(400);
          expect(errorOf(response), JSON.stringify(payload)).toEqual({
            code: 'invalid_input',
            message: MSG.expectedObject,
            fields: { _: MSG.expectedObject },
          });
        }

        const schema = jsonSchemaProperties.parse(
          z.toJSONSchema(route.body ?? z.object({}), { io: 'input', unrepresentable: 'any' }),
        );
        const properties = Object.entries(schema.properties ?? {});
        expect(properties.length).toBeGreaterThan(0);
        for (const [key, property] of properties) {
          const [wrong, message] =
            property.type === 'number' || property.type === 'integer'
              ? ['12', MSG.expectedNumber]
              : property.type === 'string'
                ? [12345, MSG.expectedText]
                : [undefined, undefined];
          if (message === undefined) continue;
          const error = failureOf(await send({ [key]: wrong }));
          expect(error.status, key).toBe(400);
          expect(error.code, key).toBe('invalid_input');
          expect(error.fields?.[key], key).toBe(message);
          const asList = failureOf(await send({ [key]: [wrong] }));
          expect(asList.status, key).toBe(400);
          expect(asList.fields?.[key], key).toBe(message);
        }
        expect(await stored()).toEqual(before);
      },
    );
  });
});
