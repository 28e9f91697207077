/**
 * Authorization matrix: every route of the server's own route table, called with a valid
 * request by four callers: nobody, an exhibitor of the event, an exhibitor of another event, an
 * administrator. Each route must have its row here: a route added without one fails the test.
 * Answers to exhibitors must not carry anything of other events or other exhibitors.
 */
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/server/modules/index.ts';
import { errorsOf } from '../../src/shared/api/define.ts';
import type { Session } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { failureOf } from '../helpers/client.ts';
import {
  seedAdmin,
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
} from '../helpers/seed.ts';
import { multipart } from '../helpers/multipart.ts';

type Caller = 'nobody' | 'exhibitorOfEvent' | 'exhibitorOfOtherEvent' | 'admin';
const CALLERS: Caller[] = ['nobody', 'exhibitorOfOtherEvent', 'exhibitorOfEvent', 'admin'];

interface World {
  eventId: string;
  otherEventId: string;
  exhibitorId: string;
  exhibitorEmail: string;
  adminEmail: string;
  adminPassword: string;
  /** An administrator whose invitation is pending (re-send and revoke act on it). */
  pendingAdminId: string;
  /** What each exhibitor must never receive: the other event's and other exhibitors' data. */
  secrets: Record<'exhibitorOfEvent' | 'exhibitorOfOtherEvent', string[]>;
}

interface Row {
  expect: Record<Caller, number>;
  request(world: World): {
    url: string;
    payload?: unknown;
    query?: Record<string, string>;
    /** A multipart upload of one file. */
    upload?: { name: string; filename: string; type?: string; data: Buffer };
  };
}

const nominee = (fiscalId: string) => ({
  name: 'Reseller Nuevo',
  registeredName: 'Reseller Nuevo S.A.',
  fiscalId,
  contactName: 'Nora Nueva',
  contactPosition: 'Gerente',
  phone: '1144440000',
  email: 'nora@reseller.test',
  location: 'Belgrano',
  city: 'Buenos Aires',
});

const adminOnly = (ok = 200) => ({
  nobody: 401,
  exhibitorOfEvent: 403,
  exhibitorOfOtherEvent: 403,
  admin: ok,
});
/** Exhibitor routes of one event: another event's exhibitor learns nothing (404, as if missing). */
const exhibitorOfEventOnly = (ok = 200) => ({
  nobody: 401,
  exhibitorOfEvent: ok,
  exhibitorOfOtherEvent: 404,
  admin: 403,
});
const everyone = (status: number) => ({
  nobody: status,
  exhibitorOfEvent: status,
  exhibitorOfOtherEvent: status,
  admin: status,
});

const MATRIX: Record<string, Row> = {
  'GET /api/session': { expect: everyone(200), request: () => ({ url: '/api/session' }) },
  'DELETE /api/session': { expect: everyone(200), request: () => ({ url: '/api/session' }) },
  'POST /api/auth/start': {
    expect: everyone(200),
    request: (w) => ({ url: '/api/auth/start', payload: { email: w.exhibitorEmail } }),
  },
  'POST /api/auth/code': {
    expect: everyone(400),
    request: (w) => ({
      url: '/api/auth/code',
      payload: { email: w.exhibitorEmail, code: '000000' },
    }),
  },
  'POST /api/auth/link': {
    expect: everyone(400),
    request: () => ({ url: '/api/auth/link', payload: { token: 'inventado' } }),
  },
  'POST /api/auth/password': {
    expect: everyone(200),
    request: (w) => ({
      url: '/api/auth/password',
      payload: { email: w.adminEmail, password: w.adminPassword },
    }),
  },
  'POST /api/auth/password-reset': {
    expect: everyone(200),
    request: (w) => ({ url: '/api/auth/password-reset', payload: { email: w.adminEmail } }),
  },
  'POST /api/auth/password-reset/confirm': {
    expect: everyone(400),
    request: () => ({
      url: '/api/auth/password-reset/confirm',
      payload: {
        oobCode: 'no-such-code',
        password: 'Otra-clave-2026',
        confirmPassword: 'Otra-clave-2026',
      },
    }),
  },
  'POST /api/admins': {
    expect: adminOnly(201),
    request: () => ({ url: '/api/admins', payload: { email: `nuevo${Date.now()}@premios.test` } }),
  },
  'GET /api/admins/invitation': {
    expect: everyone(404),
    request: () => ({ url: '/api/admins/invitation', query: { token: 'no-such-token' } }),
  },
  'POST /api/admins/invitation': {
    expect: everyone(404),
    request: () => ({
      url: '/api/admins/invitation',
      payload: {
        token: 'no-such-token',
        fullName: 'Nadie',
        password: 'Clave-segura-2026',
        confirmPassword: 'Clave-segura-2026',
      },
    }),
  },
  'POST /api/auth/mfa': {
    // Without the pending state a right password leaves, there is nothing to complete.
    expect: everyone(401),
    request: () => ({ url: '/api/auth/mfa', payload: { code: '123456' } }),
  },
  'POST /api/auth/mfa/recovery': {
    expect: everyone(401),
    request: () => ({ url: '/api/auth/mfa/recovery', payload: { recoveryCode: 'abcde-fghjk' } }),
  },
  'GET /api/security': { expect: adminOnly(), request: () => ({ url: '/api/security' }) },
  'POST /api/security/mfa/email-code': {
    expect: adminOnly(),
    request: () => ({ url: '/api/security/mfa/email-code' }),
  },
  'POST /api/security/mfa/setup': {
    // Without the code mailed to the account, no secret.
    expect: adminOnly(400),
    request: () => ({ url: '/api/security/mfa/setup', payload: { emailCode: '123456' } }),
  },
  'POST /api/security/mfa/enable': {
    // Nothing to confirm before "Activar verificación en dos pasos".
    expect: adminOnly(409),
    request: () => ({ url: '/api/security/mfa/enable', payload: { code: '123456' } }),
  },
  'POST /api/security/mfa/disable': {
    expect: adminOnly(409),
    request: () => ({ url: '/api/security/mfa/disable', payload: { code: '123456' } }),
  },
  // A wrong current password: refused after access was granted, nothing changed.
  'POST /api/security/password': {
    expect: adminOnly(400),
    request: () => ({
      url: '/api/security/password',
      payload: {
        currentPassword: 'no-es-la-actual',
        password: 'Clave-nueva-2027',
        confirmPassword: 'Clave-nueva-2027',
      },
    }),
  },
  'GET /api/admins': { expect: adminOnly(), request: () => ({ url: '/api/admins' }) },
  'POST /api/admins/:adminId/invitation': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/admins/${w.pendingAdminId}/invitation` }),
  },
  'POST /api/admins/:adminId/revoke': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/admins/${w.pendingAdminId}/revoke` }),
  },
  'GET /api/events': { expect: adminOnly(), request: () => ({ url: '/api/events' }) },
  'POST /api/events': {
    expect: adminOnly(201),
    request: () => ({
      url: '/api/events',
      payload: { name: 'Evento nuevo', eventDate: '2026-09-10', voteDeadline: '2026-09-01' },
    }),
  },
  'GET /api/events/:eventId': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}` }),
  },
  'PUT /api/events/:eventId': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}`,
      payload: { name: 'Evento renombrado', eventDate: '2026-09-10', voteDeadline: '2026-09-01' },
    }),
  },
  'DELETE /api/events/:eventId': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}` }),
  },
  'GET /api/events/:eventId/categories': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/categories` }),
  },
  'POST /api/events/:eventId/categories': {
    expect: adminOnly(201),
    request: (w) => ({
      url: `/api/events/${w.eventId}/categories`,
      payload: { name: 'Seguridad', description: '', nomineeLimit: 3, scoring: 'one' },
    }),
  },
  'PUT /api/events/:eventId/categories/:category': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/categories/value`,
      payload: { name: 'VALOR', description: 'Valor agregado', nomineeLimit: 5, scoring: 'place' },
    }),
  },
  'POST /api/events/:eventId/categories/:category/move': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/categories/value/move`,
      payload: { direction: 'up' },
    }),
  },
  'DELETE /api/events/:eventId/categories/:category': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/categories/value` }),
  },
  'POST /api/events/:eventId/duplicate': {
    expect: adminOnly(201),
    request: (w) => ({
      url: `/api/events/${w.eventId}/duplicate`,
      payload: {
        name: 'Evento duplicado',
        eventDate: '2027-09-10',
        voteDeadline: '2027-09-01',
        copyExhibitors: true,
        sendInvitations: false,
      },
    }),
  },
  // The event's date has not passed: the administrator gets the rule's 409, anyone else less.
  'POST /api/events/:eventId/archive': {
    expect: adminOnly(409),
    request: (w) => ({ url: `/api/events/${w.eventId}/archive` }),
  },
  'POST /api/events/:eventId/unarchive': {
    expect: adminOnly(409),
    request: (w) => ({ url: `/api/events/${w.eventId}/unarchive` }),
  },
  'POST /api/events/:eventId/anonymise': {
    expect: adminOnly(409),
    request: (w) => ({ url: `/api/events/${w.eventId}/anonymise` }),
  },
  'POST /api/events/:eventId/close-voting': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/close-voting` }),
  },
  'GET /api/events/:eventId/preview': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/preview` }),
  },
  'GET /api/events/:eventId/invitations/pending': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/invitations/pending` }),
  },
  'POST /api/events/:eventId/invitations/pending': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/invitations/pending` }),
  },
  'GET /api/events/:eventId/exhibitors': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/exhibitors` }),
  },
  'POST /api/events/:eventId/exhibitors': {
    expect: adminOnly(201),
    request: (w) => ({
      url: `/api/events/${w.eventId}/exhibitors`,
      payload: {
        fullName: 'Nuevo Votante',
        email: `votante${Date.now()}@empresa.test`,
        company: 'Empresa',
      },
    }),
  },
  'GET /api/events/:eventId/participation': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/participation` }),
  },
  'GET /api/events/:eventId/participation/export': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/participation/export` }),
  },
  'GET /api/events/:eventId/participation/reminder': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/participation/reminder` }),
  },
  'POST /api/events/:eventId/participation/reminder': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/participation/reminder` }),
  },
  'POST /api/events/:eventId/exhibitors/import/preview': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/exhibitors/import/preview`,
      upload: { name: 'file', filename: 'a.csv', data: Buffer.from('Email\nx@e.test') },
    }),
  },
  'POST /api/events/:eventId/exhibitors/import': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/exhibitors/import`,
      upload: {
        name: 'file',
        filename: 'a.csv',
        data: Buffer.from(`Nombre,Email\nX,x${Date.now()}@e.test`),
      },
    }),
  },
  'GET /api/exhibitors/import-template': {
    expect: adminOnly(),
    request: () => ({ url: '/api/exhibitors/import-template' }),
  },
  // The reseller registry (issue 27): administrators only. A fiscal id not in it: 404 after access.
  'GET /api/resellers': { expect: adminOnly(), request: () => ({ url: '/api/resellers' }) },
  'POST /api/resellers': {
    expect: adminOnly(201),
    request: () => ({
      url: '/api/resellers',
      payload: { fiscalId: String(Date.now()), name: 'Reseller Matriz' },
    }),
  },
  'PUT /api/resellers/:fiscalId': {
    expect: adminOnly(404),
    request: () => ({
      url: '/api/resellers/99999999999',
      payload: { fiscalId: '99999999999', name: 'Reseller Matriz' },
    }),
  },
  'DELETE /api/resellers/:fiscalId': {
    expect: adminOnly(404),
    request: () => ({ url: '/api/resellers/99999999999' }),
  },
  'PUT /api/resellers/settings': {
    expect: adminOnly(),
    request: () => ({ url: '/api/resellers/settings', payload: { validateCuit: false } }),
  },
  'POST /api/resellers/import/preview': {
    expect: adminOnly(),
    request: () => ({
      url: '/api/resellers/import/preview',
      upload: { name: 'file', filename: 'a.csv', data: Buffer.from('ID fiscal;Nombre\n20111;X') },
    }),
  },
  'POST /api/resellers/import': {
    expect: adminOnly(),
    request: () => ({
      url: '/api/resellers/import',
      upload: { name: 'file', filename: 'a.csv', data: Buffer.from('ID fiscal;Nombre\n20111;X') },
    }),
  },
  'GET /api/resellers/import-template': {
    expect: adminOnly(),
    request: () => ({ url: '/api/resellers/import-template' }),
  },
  'PUT /api/events/:eventId/exhibitors/:exhibitorId': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/exhibitors/${w.exhibitorId}`,
      payload: {
        fullName: 'Nombre Editado',
        email: `editado${Date.now()}@empresa.test`,
        company: 'E',
      },
    }),
  },
  'DELETE /api/events/:eventId/exhibitors/:exhibitorId': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/exhibitors/${w.exhibitorId}` }),
  },
  'POST /api/events/:eventId/exhibitors/invitations': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/exhibitors/invitations`,
      payload: { exhibitorIds: [w.exhibitorId] },
    }),
  },
  'POST /api/events/:eventId/exhibitors/removal-impact': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/exhibitors/removal-impact`,
      payload: { exhibitorIds: [w.exhibitorId] },
    }),
  },
  'POST /api/events/:eventId/exhibitors/removal': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/exhibitors/removal`,
      payload: { exhibitorIds: [w.exhibitorId] },
    }),
  },
  'GET /api/events/:eventId/exhibitors/:exhibitorId/removal-impact': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/exhibitors/${w.exhibitorId}/removal-impact`,
    }),
  },
  'POST /api/events/:eventId/exhibitors/:exhibitorId/invitation': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/exhibitors/${w.exhibitorId}/invitation`,
      payload: {},
    }),
  },
  'GET /api/exh/events': {
    expect: { nobody: 401, exhibitorOfEvent: 200, exhibitorOfOtherEvent: 200, admin: 403 },
    request: () => ({ url: '/api/exh/events' }),
  },
  // Searching for a colleague's nominee's id: its secrets must not come back (issue 27).
  'GET /api/exh/events/:eventId/:category/registry-search': {
    expect: exhibitorOfEventOnly(),
    request: (w) => ({
      url: `/api/exh/events/${w.eventId}/value/registry-search`,
      query: { q: '88888888' },
    }),
  },
  'GET /api/registry-search': {
    expect: adminOnly(),
    request: () => ({ url: '/api/registry-search', query: { q: '30111111' } }),
  },
  'GET /api/exh/events/:eventId': {
    expect: exhibitorOfEventOnly(),
    request: (w) => ({ url: `/api/exh/events/${w.eventId}` }),
  },
  'POST /api/exh/events/:eventId/:category/nominees': {
    expect: exhibitorOfEventOnly(),
    request: (w) => ({
      url: `/api/exh/events/${w.eventId}/value/nominees`,
      payload: { ...nominee('40500500'), version: 0 },
    }),
  },
  'PUT /api/exh/events/:eventId/:category/nominees/:fiscalId': {
    expect: exhibitorOfEventOnly(),
    request: (w) => ({
      url: `/api/exh/events/${w.eventId}/consumption/nominees/30111111`,
      payload: { ...nominee('30111111'), version: 1 },
    }),
  },
  'DELETE /api/exh/events/:eventId/:category/nominees/:fiscalId': {
    expect: exhibitorOfEventOnly(),
    request: (w) => ({
      url: `/api/exh/events/${w.eventId}/consumption/nominees/30111111`,
      query: { version: '1' },
    }),
  },
  'POST /api/exh/events/:eventId/:category/nominees/:fiscalId/move': {
    expect: exhibitorOfEventOnly(),
    request: (w) => ({
      url: `/api/exh/events/${w.eventId}/consumption/nominees/30222222/move`,
      payload: { direction: 'up', version: 1 },
    }),
  },
  'GET /api/events/:eventId/ranking/:category': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/ranking/consumption` }),
  },
  'GET /api/events/:eventId/ranking/:category/export': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/ranking/consumption/export` }),
  },
  'GET /api/events/:eventId/nominees/:category/:fiscalId': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/nominees/consumption/30111111` }),
  },
  'GET /api/events/:eventId/nominees/:category/:fiscalId/export': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/nominees/consumption/30111111/export` }),
  },
  'GET /api/events/:eventId/exhibitors/:exhibitorId/votes': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/exhibitors/${w.exhibitorId}/votes` }),
  },
  'PUT /api/events/:eventId/exhibitors/:exhibitorId/votes/:category/:order': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/exhibitors/${w.exhibitorId}/votes/consumption/1`,
      payload: { ...nominee('30999999'), reason: 'typo', version: 1 },
    }),
  },
  // The exhibitor has no VALOR AGREGADO list: nothing to annul (404) or restore (409).
  'POST /api/events/:eventId/exhibitors/:exhibitorId/votes/:category/annul': {
    expect: adminOnly(404),
    request: (w) => ({
      url: `/api/events/${w.eventId}/exhibitors/${w.exhibitorId}/votes/value/annul`,
      payload: { reason: 'Prueba' },
    }),
  },
  'POST /api/events/:eventId/exhibitors/:exhibitorId/votes/:category/restore': {
    expect: adminOnly(409),
    request: (w) => ({
      url: `/api/events/${w.eventId}/exhibitors/${w.exhibitorId}/votes/value/restore`,
    }),
  },
  'GET /api/events/:eventId/duplicates/:category': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/duplicates/consumption` }),
  },
  'POST /api/events/:eventId/duplicates/:category/preview': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/duplicates/consumption/preview`,
      payload: { into: '30111111', from: ['88888888'] },
    }),
  },
  'POST /api/events/:eventId/duplicates/:category/merge': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/duplicates/consumption/merge`,
      payload: { into: '30111111', from: ['88888888'] },
    }),
  },
  'POST /api/events/:eventId/history/:auditId/undo': {
    expect: adminOnly(404),
    request: (w) => ({ url: `/api/events/${w.eventId}/history/999999/undo` }),
  },
  'GET /api/events/:eventId/history': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/history`, query: { action: 'vote.edit' } }),
  },
  'GET /api/events/:eventId/export': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/export` }),
  },
  'GET /api/manual': {
    expect: { nobody: 401, exhibitorOfEvent: 200, exhibitorOfOtherEvent: 200, admin: 200 },
    request: () => ({ url: '/api/manual' }),
  },
  'GET /api/logo': { expect: everyone(200), request: () => ({ url: '/api/logo' }) },
  'POST /api/logo': {
    expect: adminOnly(),
    request: () => ({
      url: '/api/logo',
      upload: { name: 'logo', filename: 'logo.png', type: 'image/png', data: PNG_1X1 },
    }),
  },
  'GET /api/events/:eventId/logo': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/logo` }),
  },
  'POST /api/events/:eventId/logo': {
    expect: adminOnly(),
    request: (w) => ({
      url: `/api/events/${w.eventId}/logo`,
      upload: { name: 'logo', filename: 'logo.png', type: 'image/png', data: PNG_1X1 },
    }),
  },
  'DELETE /api/events/:eventId/logo': {
    expect: adminOnly(),
    request: (w) => ({ url: `/api/events/${w.eventId}/logo` }),
  },
  'GET /api/exh/events/:eventId/logo': {
    expect: exhibitorOfEventOnly(),
    request: (w) => ({ url: `/api/exh/events/${w.eventId}/logo` }),
  },
};

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('authorization matrix over the route table', () => {
  // The matrix walks the server's route table with concrete URLs: its requests are sent as they
  // are, and its refusals parsed as the API's error body.
  const app = useTestApp();
  let run = 0;

  /** A fresh world per route, so that one route's success cannot change another's answer. */
  async function world(): Promise<World & { sessions: Record<Caller, Session | undefined> }> {
    const { t } = app;
    run += 1;
    const admin = await seedAdmin(t.deps.db, { email: `admin-de-la-matriz${run}@premios.test` });
    const pendingAdmin = await seedAdmin(t.deps.db, {
      email: `pendiente${run}@premios.test`,
      fullName: null,
    });
    const event = await seedEvent(t.deps.db, { name: `Evento Visible ${run}` });
    const otherEvent = await seedEvent(t.deps.db, { name: `Evento Secreto ${run}` });
    const exhibitor = await seedExhibitor(t.deps.db, { email: `visible${run}@empresa.test` });
    const colleague = await seedExhibitor(t.deps.db, {
      email: `colega-secreto${run}@empresa.test`,
    });
    const outsider = await seedExhibitor(t.deps.db, { email: `ajeno-secreto${run}@empresa.test` });
    await seedMembership(t.deps.db, event.id, exhibitor.id);
    await seedMembership(t.deps.db, event.id, colleague.id);
    await seedMembership(t.deps.db, otherEvent.id, outsider.id);
    await seedNominations(t.deps.db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: '30111111' }, { fiscalId: '30222222' }],
    });
    await seedNominations(t.deps.db, {
      eventId: event.id,
      exhibitorId: colleague.id,
      category: 'consumption',
      nominees: [{ fiscalId: '88888888', email: `contacto-secreto${run}@reseller.test` }],
    });
    await seedNominations(t.deps.db, {
      eventId: otherEvent.id,
      exhibitorId: outsider.id,
      category: 'value',
      nominees: [{ fiscalId: '77777777' }],
    });
    return {
      eventId: event.id,
      otherEventId: otherEvent.id,
      exhibitorId: exhibitor.id,
      exhibitorEmail: exhibitor.email,
      adminEmail: admin.email,
      adminPassword: admin.password,
      pendingAdminId: pendingAdmin.id,
      secrets: {
        exhibitorOfEvent: [
          otherEvent.name,
          colleague.email,
          outsider.email,
          '88888888',
          '77777777',
          `contacto-secreto${run}`,
        ],
        exhibitorOfOtherEvent: [
          event.name,
          exhibitor.email,
          colleague.email,
          '30111111',
          '30222222',
          '88888888',
        ],
      },
      sessions: {
        nobody: undefined,
        exhibitorOfEvent: await t.signIn({ role: 'exh', exhibitorId: exhibitor.id }),
        exhibitorOfOtherEvent: await t.signIn({ role: 'exh', exhibitorId: outsider.id }),
        admin: await t.signIn({ role: 'admin', adminId: admin.id }),
      },
    };
  }

  it('has a row for every route, and no row for a route that does not exist', () => {
    const routes = apiRoutes.map((route) => `${route.method} ${route.url}`).sort();
    expect(routes).toEqual(Object.keys(MATRIX).sort());
  });

  it.each(apiRoutes.map((route) => [`${route.method} ${route.url}`] as const))(
    '%s',
    async (key) => {
      const row = MATRIX[key];
      if (!row) throw new Error(`no authorization row for ${key}`);
      const method = key.split(' ')[0] as 'GET' | 'POST' | 'PUT' | 'DELETE';
      const w = await world();
      const actual: Partial<Record<Caller, number>> = {};
      for (const caller of CALLERS) {
        const request = row.request(w);
        const session = w.sessions[caller];
        const body = request.upload ? multipart([request.upload]) : undefined;
        const response = await app.t.request({
          method,
          url: request.url,
          ...(request.query ? { query: request.query } : {}),
          ...(body ? { payload: body.payload, headers: body.headers } : {}),
          ...(request.payload !== undefined ? { payload: request.payload as object } : {}),
          ...(session ? { as: session } : {}),
        });
        actual[caller] = response.statusCode;
        if (response.statusCode >= 400) {
          // Every refusal is one the endpoint's contract declares.
          const route = apiRoutes.find((r) => `${r.method} ${r.url}` === key);
          expect(errorsOf(route!.endpoint), `${key} as ${caller}`).toContain(
            failureOf(response).code,
          );
        }
        if (caller === 'exhibitorOfEvent' || caller === 'exhibitorOfOtherEvent') {
          for (const secret of w.secrets[caller]) {
            expect(response.body, `${key} as ${caller}`).not.toContain(secret);
          }
        }
      }
      expect(actual).toEqual(row.expect);
    },
  );
});
