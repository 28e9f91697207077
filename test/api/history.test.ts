import { beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/server/lib/audit.ts';
import {
  addNominee,
  editNominee,
  moveNominee,
  removeNominee,
} from '../../src/shared/api/nominations.ts';
import { editVote, history as historyEndpoint } from '../../src/shared/api/results.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { TestClient } from '../helpers/client.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';
import {
  ISO_INSTANT,
  RAW_KEY,
  UUID,
  everyHistoryAction,
  missingHistoryActions,
  recordEntries,
} from '../helpers/audit-entries.ts';

const nominee = (fiscalId: string, name: string) => ({
  name,
  registeredName: `${name} S.A.`,
  fiscalId,
  contactName: 'Nora Nueva',
  contactPosition: 'Gerente',
  phone: '1144440000',
  email: 'nora@reseller.test',
  location: 'Belgrano',
  city: 'Buenos Aires',
});

describe('event history', () => {
  const app = useTestApp();
  let eventId: string;
  let exhibitorId: string;

  beforeAll(async () => {
    const { db } = app;
    eventId = (await seedEvent(db, { name: 'Historial 2026', voteDeadline: '2026-07-01' })).id;
    const e = await seedExhibitor(db, { fullName: 'Elena Uno' });
    exhibitorId = e.id;
    await seedMembership(db, eventId, exhibitorId);
  });

  const history = (query: { before?: string; action?: string; q?: string } = {}, id = eventId) =>
    app.api.call(historyEndpoint, { params: { eventId: id }, query });

  it("records the exhibitor's saves and the administrator's correction, newest first, before → after", async () => {
    const { t } = app;
    const exhibitor = await app.exhibitor(exhibitorId);
    const params = { eventId, category: 'consumption' as const };
    await exhibitor.call(addNominee, {
      params,
      body: { ...nominee('20111111111', 'Alfa'), version: 0 },
    });
    t.clock.advance(60_000);
    await exhibitor.call(addNominee, {
      params,
      body: { ...nominee('20222222222', 'Beta'), version: 1 },
    });
    t.clock.advance(60_000);
    await app.api.call(editVote, {
      params: { eventId, exhibitorId, category: 'consumption', order: 2 },
      body: { ...nominee('20333333333', 'Gama'), reason: 'wrongFiscalId', version: 2 },
    });

    const { entries, nextBefore } = await history();
    expect(nextBefore).toBeNull();
    expect(entries.map((e) => [e.action, e.actionLabel, e.detail])).toEqual([
      [
        'vote.edit',
        'Voto corregido',
        'CONSUMO, puesto 2, Beta (20222222222): Nombre del reseller: Beta → Gama; Razón social: Beta S.A. → Gama S.A.; ID fiscal: 20222222222 → 20333333333 · Motivo: ID fiscal equivocado',
      ],
      [
        'nomination.add',
        'Nominación agregada',
        'CONSUMO: se agregó Beta (20222222222) en el puesto 2',
      ],
      [
        'nomination.add',
        'Nominación agregada',
        'CONSUMO: se agregó Alfa (20111111111) en el puesto 1',
      ],
    ]);
    const exhibitorEmail = (
      await app.db
        .selectFrom('exhibitors')
        .select('email')
        .where('id', '=', exhibitorId)
        .executeTakeFirstOrThrow()
    ).email;
    // The administrator by name (seedAdmin's), the exhibitor by name and address.
    expect(entries.map((e) => e.who)).toEqual([
      'Ana Administradora',
      `Elena Uno (${exhibitorEmail})`,
      `Elena Uno (${exhibitorEmail})`,
    ]);
    expect(entries[0]?.at).toBe(t.clock.now().toISOString());
    expect(entries.map((e) => e.undoable)).toEqual([false, false, false]);
  });

  it('filters by action and searches who and what', async () => {
    expect((await history({ action: 'vote.edit' })).entries.map((e) => e.action)).toEqual([
      'vote.edit',
    ]);
    expect((await history({ action: 'nominee.merge' })).entries).toEqual([]);
    expect((await history({ q: 'BETA' })).entries.map((e) => e.action)).toEqual([
      'vote.edit',
      'nomination.add',
    ]);
    expect((await history({ q: 'elena' })).entries).toHaveLength(2);
    // Wildcards are searched for literally.
    expect((await history({ q: '%' })).entries).toEqual([]);
    const bad = await app.api.fail(historyEndpoint, {
      params: { eventId },
      query: { before: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.message).toBe(MSG.invalidInput);
    const missing = await app.api.fail(historyEndpoint, {
      params: { eventId: '00000000-0000-4000-8000-000000000000' },
      query: {},
    });
    expect(missing.status).toBe(404);
    expect(missing.message).toBe(MSG.eventNotFound);
  });

  it('says what every action did in Spanish words: no keys, ids or ISO instants, counts in the right number', async () => {
    const readable = (await seedEvent(app.db, { name: 'Legible' })).id;
    const recorded = everyHistoryAction(readable, exhibitorId);
    expect(missingHistoryActions(recorded)).toEqual([]);
    await recordEntries(app.t, app.admin.id, recorded);
    const { entries } = await history({}, readable);
    const details = entries.toReversed().map((e) => [e.actionLabel, e.detail]);
    expect(details).toEqual(DETAILS);
    for (const [, detail] of details) {
      expect(detail).not.toMatch(RAW_KEY);
      expect(detail).not.toMatch(UUID);
      expect(detail).not.toMatch(ISO_INSTANT);
    }
    expect(new Set(entries.map((e) => e.who))).toEqual(new Set(['Ana Administradora']));
  });

  it('pages 50 entries at a time through the cursor, without gaps or repeats', async () => {
    const { t } = app;
    const adminId = app.admin.id;
    const pagedEvent = (await seedEvent(app.db, { name: 'Largo' })).id;
    await t.deps.transact(async (tx) => {
      for (let i = 0; i < 120; i += 1) {
        const about = { entityType: 'event', entityId: pagedEvent, eventId: pagedEvent };
        await recordAudit(
          tx,
          { role: 'admin', adminId },
          t.clock.now(),
          i % 2 === 0
            ? {
                action: 'event.updated',
                ...about,
                details: {
                  before: { name: 'Largo', eventDate: '2026-09-01', voteDeadline: '2026-08-01' },
                  after: { name: `n ${i}`, eventDate: '2026-09-01', voteDeadline: '2026-08-01' },
                },
              }
            : {
                action: 'exhibitor.edited',
                ...about,
                details: {
                  before: { fullName: 'Largo', email: 'l@x.test', company: 'L' },
                  after: { fullName: `n ${i}`, email: 'l@x.test', company: 'L' },
                  invitationId: null,
                },
              },
        );
      }
    });
    const page = (query: { before?: string; action?: string }) => history(query, pagedEvent);
    const first = await page({});
    expect(first.entries).toHaveLength(50);
    expect(first.entries[0]?.detail).toBe('Nombre: Largo → n 119');
    const second = await page({ before: String(first.nextBefore) });
    expect(second.entries).toHaveLength(50);
    expect(second.entries[0]?.detail).toBe('Nombre: Largo → n 69');
    const third = await page({ before: String(second.nextBefore) });
    expect(third.entries).toHaveLength(20);
    expect(third.nextBefore).toBeNull();
    const all = [...first.entries, ...second.entries, ...third.entries].map((e) => e.detail);
    expect(all).toEqual(Array.from({ length: 120 }, (_, i) => `Nombre: Largo → n ${119 - i}`));
    const updates = await page({ action: 'event.updated' });
    expect(updates.entries).toHaveLength(50);
    expect(updates.entries.at(-1)?.detail).toBe('Nombre: Largo → n 20');
    expect(
      (await page({ action: 'event.updated', before: String(updates.nextBefore) })).entries,
    ).toHaveLength(10);
  });
});

describe('what "Detalle" says', () => {
  const app = useTestApp();
  let eventId: string;
  let exhibitorId: string;

  beforeAll(async () => {
    const { db } = app;
    eventId = (await seedEvent(db, { name: 'Detalle 2026', voteDeadline: '2026-07-01' })).id;
    exhibitorId = (await seedExhibitor(db, { fullName: 'Elena Uno' })).id;
    await seedMembership(db, eventId, exhibitorId);
  });

  const details = async () =>
    (await app.api.call(historyEndpoint, { params: { eventId }, query: {} })).entries.map((e) => [
      e.actionLabel,
      e.detail,
    ]);
  let version = 0;
  /** One save of the exhibitor's CONSUMO list, based on the version the last one left. */
  const save = async (write: (exhibitor: TestClient, version: number) => Promise<unknown>) => {
    await write(await app.exhibitor(exhibitorId), version);
    version += 1;
  };

  it('names what a save changed in the list, not the whole list twice', async () => {
    const list = { eventId, category: 'consumption' as const };
    const entry = (fiscalId: string) => ({ ...list, fiscalId });
    for (const [fiscalId, name] of [
      ['20111111111', 'Alfa'],
      ['20222222222', 'Beta'],
      ['20333333333', 'Gama'],
    ] as const) {
      await save((exh, v) =>
        exh.call(addNominee, { params: list, body: { ...nominee(fiscalId, name), version: v } }),
      );
    }
    await save((exh, v) =>
      exh.call(moveNominee, {
        params: entry('20333333333'),
        body: { direction: 'up', version: v },
      }),
    );
    await save((exh, v) =>
      exh.call(editNominee, {
        params: entry('20111111111'),
        body: { ...nominee('20111111111', 'Alfa'), contactName: 'Lucia Fernadez', version: v },
      }),
    );
    await save((exh, v) =>
      exh.call(removeNominee, { params: entry('20111111111'), query: { version: String(v) } }),
    );
    expect((await details()).slice(0, 4)).toEqual([
      ['Nominación quitada', 'CONSUMO: se quitó Alfa (20111111111) del puesto 1'],
      [
        'Nominación modificada',
        'CONSUMO: se modificó Alfa (20111111111): Nombre del contacto: Nora Nueva → Lucia Fernadez',
      ],
      [
        'Nominación movida',
        'CONSUMO: Gama (20333333333) pasó del puesto 3 al 2; Beta (20222222222) pasó del puesto 2 al 3',
      ],
      ['Nominación agregada', 'CONSUMO: se agregó Gama (20333333333) en el puesto 3'],
    ]);
  });

  it("names each field a correction changed, with the form's label, then the reason", async () => {
    // The list is now Gama, Beta: correct the contact's name of Beta, second place.
    await app.api.call(editVote, {
      params: { eventId, exhibitorId, category: 'consumption', order: 2 },
      body: {
        ...nominee('20222222222', 'Beta'),
        contactName: 'Lucía Fernández',
        phone: '1155550000',
        reason: 'other',
        detail: 'Lo pidió el comité',
        // The list's version as the exhibitor's saves above left it, read back by the correction.
        version,
      },
    });
    expect((await details())[0]).toEqual([
      'Voto corregido',
      'CONSUMO, puesto 2, Beta (20222222222): Nombre del contacto: Nora Nueva → Lucía Fernández; Teléfono: 1144440000 → 1155550000 · Motivo: Otro (Lo pidió el comité)',
    ]);
  });

  it('shows a stored entry that does not fit its action as unreadable, never failing', async () => {
    const raw = (action: string, details: string) =>
      app.db
        .insertInto('audit_log')
        .values({
          at: app.t.clock.now().toISOString(),
          actor_role: 'admin',
          actor_id: app.admin.id,
          actor_email: null,
          action,
          entity_type: 'nomination',
          entity_id: null,
          event_id: eventId,
          details,
        })
        .execute();
    await raw('vote.edit', '{"category":"consumption","order":"dos"');
    await raw('nomination.add', '{"category":"consumption","before":[{"order":1}],"after":[]}');
    await raw('vote.edit', '{"category":"otra","order":1,"reason":"typo"}');
    await raw('future.action', '{}');
    expect((await details()).slice(0, 4)).toEqual([
      ['future.action', MSG.auditDetailUnreadable],
      ['Voto corregido', MSG.auditDetailUnreadable],
      ['Nominación agregada', MSG.auditDetailUnreadable],
      ['Voto corregido', MSG.auditDetailUnreadable],
    ]);
  });
});

/** What "Historial" says for `everyHistoryAction`, oldest first. */
const DETAILS = [
  ['Evento creado', 'Premios 2026, fecha del evento 1-9-2026, fecha límite 1-8-2026'],
  [
    'Evento modificado',
    'Fecha del evento: 1-9-2026 → 2-9-2026; Recordatorios: 7 días antes, el día del cierre → ninguno',
  ],
  [
    'Evento duplicado',
    'Premios 2026, fecha del evento 1-9-2026, fecha límite 1-8-2026; 1 expositor copiado',
  ],
  [
    'Datos del nominado modificados',
    'Cargo del contacto: Obligatorio → Opcional; Región: Obligatorio → No se pide',
  ],
  ['Logo del evento reemplazado', '1 byte'],
  ['Logo del evento quitado', 'vuelve el logo del programa'],
  ['Evento archivado', ''],
  ['Evento desarchivado', ''],
  ['Datos personales anonimizados', ''],
  [
    'Votación cerrada',
    'Fecha límite de votación: 20-6-2026 → 1-6-2026; 2 recordatorios cancelados',
  ],
  ['Invitaciones pendientes enviadas', '1 invitación enviada'],
  ['Expositor agregado', 'elena@expo.test'],
  ['Expositor modificado', 'Nombre: Elena → Elena Uno; Empresa: (vacío) → Norte'],
  ['Expositor quitado', 'ernesto@expo.test; 1 nominación descartada'],
  ['Invitación reenviada', 'elena@expo.test'],
  ['Expositores importados', 'expositores.xlsx: 1 expositor agregado'],
  ['Recordatorio enviado', '1 expositor: eva@expo.test'],
  [
    'Invitaciones reenviadas',
    '2 invitaciones reenviadas: elena@expo.test, eva@expo.test; 1 invitación sin enviar por el límite de envíos',
  ],
  ['Expositores quitados', '1 expositor quitado: ernesto@expo.test; 3 nominaciones descartadas'],
  ['Nominación agregada', 'CONSUMO: se agregó Alfa (20111111111) en el puesto 1'],
  [
    'Nominación modificada',
    'CONSUMO: se modificó Alfa (20111111111): Teléfono: 1144440000 → (vacío)',
  ],
  [
    'Nominación movida',
    'CONSUMO: Beta (20222222222) pasó del puesto 2 al 1; Alfa (20111111111) pasó del puesto 1 al 2',
  ],
  ['Nominación quitada', 'CONSUMO: se quitó Alfa (20111111111) del puesto 1'],
  [
    'Voto corregido',
    'CONSUMO, puesto 1, Alfa (20111111111): Nombre del reseller: Alfa → Alfa Corregida; Razón social: Alfa S.A. → Alfa Corregida S.A. · Motivo: Error de tipeo',
  ],
  [
    'Votos anulados',
    'CONSUMO: la lista de Elena Uno (1 voto) anulada · Motivo: Votó con otra cuenta',
  ],
  [
    'Votos restablecidos',
    'CONSUMO: la lista de Elena Uno (1 voto) restablecida · Había sido anulada por: Votó con otra cuenta',
  ],
  ['Nominados unificados', 'CONSUMO: Beta (20222222222) → Alfa (20111111111); 1 lista modificada'],
  ['Unificación deshecha', 'CONSUMO: Alfa (20111111111) → Beta (20222222222); 1 lista restaurada'],
  ['Categoría creada', 'INNOVACIÓN CLOUD: 5 nominaciones por expositor, Por puesto'],
  [
    'Categoría modificada',
    'INNOVACIÓN CLOUD: Nombre: INNOVACIÓN CLOUD → NUBE; Descripción: Partners con servicios cloud → (vacío); Nominaciones por expositor: 5 → 3; Puntaje: Por puesto → Un punto por nominación',
  ],
  ['Categoría movida', 'NUBE: del lugar 3 al 2'],
  ['Categoría eliminada', 'INNOVACIÓN CLOUD: 1 nominación por expositor, Por puesto'],
];
