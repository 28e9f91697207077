/**
 * Authorization matrix: every route of the server's own route table, called with a valid
 * request by four callers: nobody, an exhibitor of the event, an exhibitor of another event, an
 * administrator. Each route must have its row here: a route added without one fails the test.
 * Answers to exhibitors must not carry anything of other events or other exhibitors.
 *
 * A row names its endpoint definition (src/shared/api) and the typed input it is called with,
 * through the typed client: a route renamed or re-shaped in the contract moves its row along or
 * fails the typecheck, never silently falls out of the matrix.
 */
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/server/modules/index.ts';
import {
  acceptInvitation,
  getInvitation,
  inviteAdmin,
  listAdmins,
  resendAdminInvitation,
  revokeAdmin,
} from '../../src/shared/api/admins.ts';
import { annulList, restoreList } from '../../src/shared/api/annulment.ts';
import {
  changePassword,
  confirmPasswordReset,
  disableMfa,
  enableMfa,
  mfaStatus,
  requestPasswordReset,
  sendMfaEnrolCode,
  signInWithCode,
  signInWithLink,
  signInWithPassword,
  signInWithRecoveryCode,
  signInWithTotp,
  startMfaSetup,
  startSignIn,
} from '../../src/shared/api/auth.ts';
import {
  getEventLogo,
  getLogo,
  myEventLogo,
  removeEventLogo,
  replaceEventLogo,
  replaceLogo,
} from '../../src/shared/api/branding.ts';
import {
  createCategory,
  deleteCategory,
  listCategories,
  moveCategory,
  updateCategory,
} from '../../src/shared/api/categories.ts';
import { errorsOf, type Endpoint, type InputOf } from '../../src/shared/api/define.ts';
import { integrityAlerts } from '../../src/shared/api/integrity.ts';
import {
  anonymiseEvent,
  archiveEvent,
  closeVoting,
  viewResultsEarly,
  createEvent,
  deleteEvent,
  duplicateEvent,
  getEvent,
  listEvents,
  unarchiveEvent,
  updateEvent,
} from '../../src/shared/api/events.ts';
import {
  addExhibitor,
  bulkRemovalImpact,
  editExhibitor,
  importRoster,
  listEventExhibitors,
  pendingInvitations,
  previewRoster,
  removalImpact,
  removeExhibitor,
  removeExhibitors,
  resendInvitation,
  resendInvitations,
  rosterTemplate,
  sendPendingInvitations,
} from '../../src/shared/api/exhibitors.ts';
import { ALL_ENDPOINTS } from '../../src/shared/api/index.ts';
import {
  addNominee,
  editNominee,
  moveNominee,
  myEvent,
  myEvents,
  previewEvent,
  removeNominee,
} from '../../src/shared/api/nominations.ts';
import {
  exportParticipation,
  participation,
  reminderPlan,
  sendReminder,
} from '../../src/shared/api/participation.ts';
import {
  searchRegistryAsAdmin,
  searchRegistryAsExhibitor,
} from '../../src/shared/api/registry-search.ts';
import {
  addReseller,
  editReseller,
  importRegistry,
  listResellers,
  previewRegistryImport,
  registryTemplate,
  removeReseller,
  updateRegistrySettings,
} from '../../src/shared/api/registry.ts';
import {
  categoryRanking,
  duplicates,
  editVote,
  exhibitorVotes,
  exportEvent,
  exportNomineeVotes,
  exportRanking,
  history,
  manual,
  merge,
  mergePreview,
  nomineeVotes,
  undoMerge,
} from '../../src/shared/api/results.ts';
import { getSession, signOut } from '../../src/shared/api/session.ts';
import type { ApiErrorCode } from '../../src/shared/errors.ts';
import type { Session } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { failureOf, type CallOptions, type TestClient } from '../helpers/client.ts';
import {
  seedAdmin,
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
} from '../helpers/seed.ts';

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

/** What the matrix reads of one answer: its status, its body, and a refusal's code. */
interface Answer {
  status: number;
  body: string;
  code: ApiErrorCode | undefined;
}

interface Row {
  endpoint: Endpoint;
  expect: Record<Caller, number>;
  send(client: TestClient, world: World): Promise<Answer>;
}

/**
 * A row of the matrix: the endpoint, then what each caller gets and the input it is called with,
 * typed by the endpoint's own contract (and, for an upload, the file). Two calls, so that the
 * endpoint's type is fixed before the input is read: inferred together, TypeScript widens the
 * input's literals ('value' to string) and refuses them.
 */
function row<E extends Endpoint>(endpoint: E) {
  return (
    expected: Record<Caller, number>,
    input: (world: World) => InputOf<E>,
    options: (world: World) => CallOptions = () => ({}),
  ): Row => ({
    endpoint,
    expect: expected,
    async send(client, world) {
      const outcome = await client.send(endpoint, input(world), options(world));
      return {
        status: outcome.status,
        body: outcome.response.body,
        code: outcome.ok ? undefined : outcome.code,
      };
    },
  });
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

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const logoFile = () => ({ file: { filename: 'logo.png', type: 'image/png', data: PNG_1X1 } });
const nothing = () => ({});

const MATRIX: readonly Row[] = [
  row(getSession)(everyone(200), nothing),
  row(signOut)(everyone(200), nothing),
  row(startSignIn)(everyone(200), (w) => ({ body: { email: w.exhibitorEmail } })),
  row(signInWithCode)(everyone(400), (w) => ({
    body: { email: w.exhibitorEmail, code: '000000' },
  })),
  row(signInWithLink)(everyone(400), () => ({ body: { token: 'inventado' } })),
  row(signInWithPassword)(everyone(200), (w) => ({
    body: { email: w.adminEmail, password: w.adminPassword },
  })),
  row(requestPasswordReset)(everyone(200), (w) => ({ body: { email: w.adminEmail } })),
  row(confirmPasswordReset)(everyone(400), () => ({
    body: {
      oobCode: 'no-such-code',
      password: 'Otra-clave-2026',
      confirmPassword: 'Otra-clave-2026',
    },
  })),
  row(inviteAdmin)(adminOnly(201), () => ({ body: { email: `nuevo${Date.now()}@premios.test` } })),
  row(getInvitation)(everyone(404), () => ({ query: { token: 'no-such-token' } })),
  row(acceptInvitation)(everyone(404), () => ({
    body: {
      token: 'no-such-token',
      fullName: 'Nadie',
      password: 'Clave-segura-2026',
      confirmPassword: 'Clave-segura-2026',
    },
  })),
  // Without the pending state a right password leaves, there is nothing to complete.
  row(signInWithTotp)(everyone(401), () => ({ body: { code: '123456' } })),
  row(signInWithRecoveryCode)(everyone(401), () => ({ body: { recoveryCode: 'abcde-fghjk' } })),
  row(mfaStatus)(adminOnly(), nothing),
  row(sendMfaEnrolCode)(adminOnly(), nothing),
  // Without the code mailed to the account, no secret.
  row(startMfaSetup)(adminOnly(400), () => ({ body: { emailCode: '123456' } })),
  // Nothing to confirm before "Activar verificación en dos pasos".
  row(enableMfa)(adminOnly(409), () => ({ body: { code: '123456' } })),
  row(disableMfa)(adminOnly(409), () => ({ body: { code: '123456' } })),
  // A wrong current password: refused after access was granted, nothing changed.
  row(changePassword)(adminOnly(400), () => ({
    body: {
      currentPassword: 'no-es-la-actual',
      password: 'Clave-nueva-2027',
      confirmPassword: 'Clave-nueva-2027',
    },
  })),
  row(listAdmins)(adminOnly(), nothing),
  row(resendAdminInvitation)(adminOnly(), (w) => ({ params: { adminId: w.pendingAdminId } })),
  row(revokeAdmin)(adminOnly(), (w) => ({ params: { adminId: w.pendingAdminId } })),
  row(listEvents)(adminOnly(), nothing),
  row(createEvent)(adminOnly(201), () => ({
    body: { name: 'Evento nuevo', eventDate: '2026-09-10', voteDeadline: '2026-09-01' },
  })),
  row(getEvent)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(updateEvent)(adminOnly(), (w) => ({
    params: { eventId: w.eventId },
    body: { name: 'Evento renombrado', eventDate: '2026-09-10', voteDeadline: '2026-09-01' },
  })),
  row(deleteEvent)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(duplicateEvent)(adminOnly(201), (w) => ({
    params: { eventId: w.eventId },
    body: {
      name: 'Evento duplicado',
      eventDate: '2027-09-10',
      voteDeadline: '2027-09-01',
      copyExhibitors: true,
      sendInvitations: false,
    },
  })),
  // The event's date has not passed: the administrator gets the rule's 409, anyone else less.
  row(archiveEvent)(adminOnly(409), (w) => ({ params: { eventId: w.eventId } })),
  row(unarchiveEvent)(adminOnly(409), (w) => ({ params: { eventId: w.eventId } })),
  row(anonymiseEvent)(adminOnly(409), (w) => ({ params: { eventId: w.eventId } })),
  row(closeVoting)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(listCategories)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(createCategory)(adminOnly(201), (w) => ({
    params: { eventId: w.eventId },
    body: { name: 'Seguridad', description: '', nomineeLimit: 3, scoring: 'one' },
  })),
  row(updateCategory)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'value' },
    body: { name: 'VALOR', description: 'Valor agregado', nomineeLimit: 5, scoring: 'place' },
  })),
  row(moveCategory)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'value' },
    body: { direction: 'up' },
  })),
  row(deleteCategory)(adminOnly(), (w) => ({ params: { eventId: w.eventId, category: 'value' } })),
  // The seeded event does not seal its results: nothing to open early (409), only for administrators.
  row(viewResultsEarly)(adminOnly(409), (w) => ({
    params: { eventId: w.eventId },
    body: { reason: 'Revisión del comité' },
  })),
  // "Integridad": names exhibitors, addresses' domains and nominees; administrators only.
  row(integrityAlerts)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(previewEvent)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(pendingInvitations)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(sendPendingInvitations)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(listEventExhibitors)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(addExhibitor)(adminOnly(201), (w) => ({
    params: { eventId: w.eventId },
    body: {
      fullName: 'Nuevo Votante',
      email: `votante${Date.now()}@empresa.test`,
      company: 'Empresa',
    },
  })),
  row(participation)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(exportParticipation)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(reminderPlan)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(sendReminder)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(previewRoster)(
    adminOnly(),
    (w) => ({ params: { eventId: w.eventId } }),
    () => ({ file: { filename: 'a.csv', data: Buffer.from('Email\nx@e.test') } }),
  ),
  row(importRoster)(
    adminOnly(),
    (w) => ({ params: { eventId: w.eventId } }),
    () => ({
      file: { filename: 'a.csv', data: Buffer.from(`Nombre,Email\nX,x${Date.now()}@e.test`) },
    }),
  ),
  row(rosterTemplate)(adminOnly(), nothing),
  // The reseller registry (issue 27): administrators only. A fiscal id not in it: 404 after access.
  row(listResellers)(adminOnly(), nothing),
  row(addReseller)(adminOnly(201), () => ({
    body: { fiscalId: String(Date.now()), name: 'Reseller Matriz' },
  })),
  row(editReseller)(adminOnly(404), () => ({
    params: { fiscalId: '99999999999' },
    body: { fiscalId: '99999999999', name: 'Reseller Matriz' },
  })),
  row(removeReseller)(adminOnly(404), () => ({ params: { fiscalId: '99999999999' } })),
  row(updateRegistrySettings)(adminOnly(), () => ({ body: { validateCuit: false } })),
  row(previewRegistryImport)(adminOnly(), nothing, () => ({
    file: { filename: 'a.csv', data: Buffer.from('ID fiscal;Nombre\n20111;X') },
  })),
  row(importRegistry)(adminOnly(), nothing, () => ({
    file: { filename: 'a.csv', data: Buffer.from('ID fiscal;Nombre\n20111;X') },
  })),
  row(registryTemplate)(adminOnly(), nothing),
  row(editExhibitor)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, exhibitorId: w.exhibitorId },
    body: {
      fullName: 'Nombre Editado',
      email: `editado${Date.now()}@empresa.test`,
      company: 'E',
    },
  })),
  row(removeExhibitor)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, exhibitorId: w.exhibitorId },
  })),
  row(resendInvitations)(adminOnly(), (w) => ({
    params: { eventId: w.eventId },
    body: { exhibitorIds: [w.exhibitorId] },
  })),
  row(bulkRemovalImpact)(adminOnly(), (w) => ({
    params: { eventId: w.eventId },
    body: { exhibitorIds: [w.exhibitorId] },
  })),
  row(removeExhibitors)(adminOnly(), (w) => ({
    params: { eventId: w.eventId },
    body: { exhibitorIds: [w.exhibitorId] },
  })),
  row(removalImpact)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, exhibitorId: w.exhibitorId },
  })),
  row(resendInvitation)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, exhibitorId: w.exhibitorId },
  })),
  row(myEvents)(
    { nobody: 401, exhibitorOfEvent: 200, exhibitorOfOtherEvent: 200, admin: 403 },
    nothing,
  ),
  // Searching for a colleague's nominee's id: its secrets must not come back (issue 27).
  row(searchRegistryAsExhibitor)(exhibitorOfEventOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'value' },
    query: { q: '88888888' },
  })),
  row(searchRegistryAsAdmin)(adminOnly(), () => ({ query: { q: '30111111' } })),
  row(myEvent)(exhibitorOfEventOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(addNominee)(exhibitorOfEventOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'value' },
    body: { ...nominee('40500500'), version: 0 },
  })),
  row(editNominee)(exhibitorOfEventOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'consumption', fiscalId: '30111111' },
    body: { ...nominee('30111111'), version: 1 },
  })),
  row(removeNominee)(exhibitorOfEventOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'consumption', fiscalId: '30111111' },
    query: { version: '1' },
  })),
  row(moveNominee)(exhibitorOfEventOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'consumption', fiscalId: '30222222' },
    body: { direction: 'up', version: 1 },
  })),
  row(categoryRanking)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'consumption' },
  })),
  row(exportRanking)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'consumption' },
  })),
  row(nomineeVotes)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'consumption', fiscalId: '30111111' },
  })),
  row(exportNomineeVotes)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'consumption', fiscalId: '30111111' },
  })),
  row(exhibitorVotes)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, exhibitorId: w.exhibitorId },
  })),
  row(editVote)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, exhibitorId: w.exhibitorId, category: 'consumption', order: '1' },
    body: { ...nominee('30999999'), reason: 'typo', version: 1 },
  })),
  // The exhibitor has no VALOR AGREGADO list: nothing to annul (404) or restore (409).
  row(annulList)(adminOnly(404), (w) => ({
    params: { eventId: w.eventId, exhibitorId: w.exhibitorId, category: 'value' },
    body: { reason: 'Prueba' },
  })),
  row(restoreList)(adminOnly(409), (w) => ({
    params: { eventId: w.eventId, exhibitorId: w.exhibitorId, category: 'value' },
  })),
  row(duplicates)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'consumption' },
  })),
  row(mergePreview)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'consumption' },
    body: { into: '30111111', from: ['88888888'] },
  })),
  row(merge)(adminOnly(), (w) => ({
    params: { eventId: w.eventId, category: 'consumption' },
    body: { into: '30111111', from: ['88888888'] },
  })),
  row(undoMerge)(adminOnly(404), (w) => ({ params: { eventId: w.eventId, auditId: '999999' } })),
  row(history)(adminOnly(), (w) => ({
    params: { eventId: w.eventId },
    query: { action: 'vote.edit' },
  })),
  row(exportEvent)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(manual)(
    { nobody: 401, exhibitorOfEvent: 200, exhibitorOfOtherEvent: 200, admin: 200 },
    nothing,
  ),
  row(getLogo)(everyone(200), nothing),
  row(replaceLogo)(adminOnly(), nothing, logoFile),
  row(getEventLogo)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(replaceEventLogo)(adminOnly(), (w) => ({ params: { eventId: w.eventId } }), logoFile),
  row(removeEventLogo)(adminOnly(), (w) => ({ params: { eventId: w.eventId } })),
  row(myEventLogo)(exhibitorOfEventOnly(), (w) => ({ params: { eventId: w.eventId } })),
];

/**
 * Endpoints of the contract that need a session and yet have no row, each with why. Empty: every
 * one of them is walked. A new endpoint that needs a session fails the test below until it has
 * its row here or, with a reason, an entry here.
 */
const EXCLUDED_FROM_MATRIX: ReadonlyMap<Endpoint, string> = new Map();

/**
 * Routes the server serves outside the contract, addressed by literal URL because no endpoint
 * definition names them: the probes (/healthz, /readyz), the API's own reference (the OpenAPI
 * document, its page and that page's script) and /metrics (404 without METRICS_TOKEN, as in the
 * tests; its bearer token is tested in test/api/metrics.test.ts). All are public by design and
 * carry no event's data. The static files (the web bundle, Swagger UI's assets) are not routes of
 * the API and are left out.
 */
const OUTSIDE_CONTRACT: readonly { url: string; expect: Record<Caller, number> }[] = [
  { url: '/healthz', expect: everyone(200) },
  { url: '/readyz', expect: everyone(200) },
  { url: '/api/openapi.json', expect: everyone(200) },
  { url: '/api/docs', expect: everyone(200) },
  { url: '/api/docs/start.js', expect: everyone(200) },
  { url: '/metrics', expect: everyone(404) },
];

const keyOf = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;
const rowOf = new Map(MATRIX.map((r) => [r.endpoint, r]));

describe('authorization matrix over the route table', () => {
  const app = useTestApp();
  let run = 0;

  /** A fresh world per route, so that one route's success cannot change another's answer. */
  async function world(): Promise<World & { sessions: Record<Caller, Session | null> }> {
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
        nobody: null,
        exhibitorOfEvent: await t.signIn({ role: 'exh', exhibitorId: exhibitor.id }),
        exhibitorOfOtherEvent: await t.signIn({ role: 'exh', exhibitorId: outsider.id }),
        admin: await t.signIn({ role: 'admin', adminId: admin.id }),
      },
    };
  }

  it('has a row for every route, and no row for a route that does not exist', () => {
    expect(apiRoutes.map((route) => keyOf(route.endpoint)).sort()).toEqual(
      MATRIX.map((r) => keyOf(r.endpoint)).sort(),
    );
    // The row is the route's own endpoint definition, not another one at the same address.
    for (const route of apiRoutes)
      expect(rowOf.get(route.endpoint), keyOf(route.endpoint)).toBeDefined();
  });

  it('has a row for every endpoint of the contract that needs a session', () => {
    const missing = ALL_ENDPOINTS.filter(
      (endpoint) =>
        endpoint.access !== 'public' && !rowOf.has(endpoint) && !EXCLUDED_FROM_MATRIX.has(endpoint),
    ).map(keyOf);
    expect(missing).toEqual([]);
    // An exclusion names an endpoint of the contract that has no row; anything else is stale.
    for (const endpoint of EXCLUDED_FROM_MATRIX.keys()) {
      expect(ALL_ENDPOINTS).toContain(endpoint);
      expect(rowOf.has(endpoint), keyOf(endpoint)).toBe(false);
    }
  });

  it.each(apiRoutes.map((route) => [keyOf(route.endpoint), route.endpoint] as const))(
    '%s',
    async (key, endpoint) => {
      const row = rowOf.get(endpoint);
      if (!row) throw new Error(`no authorization row for ${key}`);
      const w = await world();
      const actual: Partial<Record<Caller, number>> = {};
      for (const caller of CALLERS) {
        const answer = await row.send(app.client(w.sessions[caller]), w);
        actual[caller] = answer.status;
        if (answer.code !== undefined) {
          // Every refusal is one the endpoint's contract declares.
          expect(errorsOf(endpoint), `${key} as ${caller}`).toContain(answer.code);
        }
        if (caller === 'exhibitorOfEvent' || caller === 'exhibitorOfOtherEvent') {
          for (const secret of w.secrets[caller]) {
            expect(answer.body, `${key} as ${caller}`).not.toContain(secret);
          }
        }
      }
      expect(actual).toEqual(row.expect);
    },
  );

  it.each(
    OUTSIDE_CONTRACT.map((route) => [`GET ${route.url} (outside the contract)`, route] as const),
  )('%s', async (_key, route) => {
    expect(app.t.app.hasRoute({ method: 'GET', url: route.url })).toBe(true);
    const w = await world();
    const actual: Partial<Record<Caller, number>> = {};
    for (const caller of CALLERS) {
      const session = w.sessions[caller];
      const response = await app.t.request({
        method: 'GET',
        url: route.url,
        ...(session ? { as: session } : {}),
      });
      actual[caller] = response.statusCode;
      // A refusal outside the contract is still the API's error body.
      if (response.statusCode >= 400) expect(failureOf(response).code).toBe('not_found');
    }
    expect(actual).toEqual(route.expect);
  });
});
