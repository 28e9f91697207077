import ExcelJS from 'exceljs';
import { newId } from '../../src/server/lib/crypto.ts';
import { AUDIT_ACTIONS } from '../../src/shared/audit-entries.ts';
import { MSG } from '../../src/shared/messages.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { editVote, exportEvent, XLSX_MEDIA_TYPE } from '../../src/shared/api/results.ts';
import { useTestApp, type ApiFixture } from '../helpers/api-fixture.ts';
import { TEST_TIMEZONE } from '../helpers/app.ts';
import {
  ISO_INSTANT,
  RAW_KEY,
  UUID,
  everyHistoryAction,
  missingHistoryActions,
  recordEntries,
} from '../helpers/audit-entries.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

const T1 = '2026-01-01T10:00:00.000Z';
const T2 = '2026-01-02T10:00:00.000Z';
const FORMULA = '=HYPERLINK("http://example.test","clic")';

/** An instant as a date cell reads back: a Date whose UTC fields are the wall clock in the zone. */
function wallClock(instant: string, timeZone: string): Date {
  const part = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(instant))
      .map(({ type, value }) => [type, Number(value)]),
  );
  return new Date(
    Date.UTC(
      part.year ?? 0,
      (part.month ?? 1) - 1,
      part.day ?? 1,
      part.hour ?? 0,
      part.minute ?? 0,
      part.second ?? 0,
      new Date(instant).getUTCMilliseconds(),
    ),
  );
}

async function readWorkbook(file: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  const sheets = new Map<
    string,
    {
      values: unknown[][];
      formulas: number;
      views: Partial<ExcelJS.WorksheetView>[];
      autoFilter: unknown;
      widths: (number | undefined)[];
    }
  >();
  workbook.eachSheet((sheet) => {
    const values: unknown[][] = [];
    let formulas = 0;
    sheet.eachRow((row) => {
      const cells: unknown[] = [];
      row.eachCell({ includeEmpty: true }, (cell) => {
        if (cell.formula) formulas += 1;
        cells.push(cell.value);
      });
      values.push(cells);
    });
    sheets.set(sheet.name, {
      values,
      formulas,
      views: sheet.views,
      autoFilter: sheet.autoFilter,
      widths: sheet.columns.map((column) => column.width),
    });
  });
  return { names: workbook.worksheets.map((s) => s.name), sheets };
}

/** The workbook of a whole event, as the administrator downloads it. */
const exported = (app: ApiFixture, eventId: string) =>
  app.api.call(exportEvent, { params: { eventId } });

describe('the whole event in one workbook', () => {
  const app = useTestApp();
  let eventId: string;
  let e1: string;

  beforeAll(async () => {
    const { db } = app;
    eventId = (await seedEvent(db, { name: 'Premios 2026' })).id;
    e1 = (await seedExhibitor(db, { fullName: 'Elena Uno' })).id;
    const e2 = (await seedExhibitor(db, { fullName: 'Ernesto Dos' })).id;
    const e3 = (await seedExhibitor(db, { fullName: 'Eva Sin Votos' })).id;
    for (const id of [e1, e2, e3]) await seedMembership(db, eventId, id);
    await seedNominations(db, {
      eventId,
      exhibitorId: e1,
      category: 'consumption',
      nominees: [
        { fiscalId: '20111111111', name: FORMULA, nominatedAt: T1 },
        { fiscalId: '20222222222', name: 'Beta\u0001\u0008 Control', nominatedAt: T1 },
      ],
    });
    await seedNominations(db, {
      eventId,
      exhibitorId: e2,
      category: 'consumption',
      nominees: [
        { fiscalId: '20222222222', name: 'Beta Dos', nominatedAt: T2 },
        { fiscalId: '20111111111', name: 'Alfa Dos', nominatedAt: T2 },
      ],
    });
    await seedNominations(db, {
      eventId,
      exhibitorId: e2,
      category: 'value',
      nominees: [{ fiscalId: '30000000001', name: 'Valor Uno', nominatedAt: T2 }],
    });
  });

  it('downloads {evento}-completo.xlsx with the five sheets, formula-safe and XML-valid', async () => {
    const { t } = app;
    await app.api.call(editVote, {
      params: { eventId, exhibitorId: e1, category: 'consumption', order: 2 },
      body: {
        name: 'Beta Corregida',
        registeredName: 'Beta S.A.',
        fiscalId: '20222222222',
        contactName: 'Carla',
        contactPosition: 'Gerente',
        phone: '1155550000',
        email: 'carla@reseller.test',
        location: 'Palermo',
        city: 'Buenos Aires',
        reason: 'exhibitorRequest',
        // As seeded: the list's first version.
        version: 1,
      },
    });

    const outcome = await app.api.send(exportEvent, { params: { eventId } });
    expect(outcome.status).toBe(200);
    const { response } = outcome;
    expect(response.headers['content-type']).toBe(XLSX_MEDIA_TYPE);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Premios 2026-completo.xlsx"; filename*=UTF-8''Premios%202026-completo.xlsx`,
    );
    // An empty cell (the first row's tie-break, a correction without detail) reads as null.
    const { names, sheets } = await readWorkbook(response.rawPayload);
    expect(names).toEqual(['CONSUMO', 'VALOR AGREGADO', 'Votos', 'Participación', 'Correcciones']);
    for (const sheet of sheets.values()) expect(sheet.formulas).toBe(0);

    // Alfa: 5 + 4 = 9 (T1 first), Beta: 4 + 5 = 9 (T1 too): tied on everything.
    expect(sheets.get('CONSUMO')?.values).toEqual([
      [
        'Posición',
        'ID fiscal',
        'Nombre del reseller',
        'Razón social',
        '1°',
        '2°',
        '3°',
        '4°',
        '5°',
        'Puntos',
        'Nominaciones',
        'Desempate',
      ],
      [1, '20111111111', FORMULA, 'Razón Social 20111111111 S.A.', 1, 1, 0, 0, 0, 9, 2, null],
      [1, '20222222222', 'Beta Corregida', 'Beta S.A.', 1, 1, 0, 0, 0, 9, 2, 'Empate'],
    ]);
    expect(sheets.get('VALOR AGREGADO')?.values.slice(1)).toEqual([
      [1, '30000000001', 'Valor Uno', 'Razón Social 30000000001 S.A.', 1, 0, 0, 0, 0, 5, 1, null],
    ]);

    const votes = sheets.get('Votos')?.values ?? [];
    expect(votes[0]).toEqual([
      'Expositor',
      'Empresa',
      'Categoría',
      'Orden',
      'Nombre del reseller',
      'Razón social',
      'ID fiscal',
      'Nombre del contacto',
      'Cargo del contacto',
      'Teléfono',
      'Email',
      'Localidad',
      'Ciudad',
      'Anulado',
    ]);
    const byExhibitor = (a: unknown[], b: unknown[]) =>
      String(a[0]).localeCompare(String(b[0])) ||
      String(a[1]).localeCompare(String(b[1])) ||
      Number(a[2]) - Number(b[2]);
    expect(
      votes
        .slice(1)
        .map((r) => [r[0], r[2], r[3], r[4], r[6]])
        .sort(byExhibitor),
    ).toEqual([
      ['Elena Uno', 'CONSUMO', 1, FORMULA, '20111111111'],
      ['Elena Uno', 'CONSUMO', 2, 'Beta Corregida', '20222222222'],
      ['Ernesto Dos', 'CONSUMO', 1, 'Beta Dos', '20222222222'],
      ['Ernesto Dos', 'CONSUMO', 2, 'Alfa Dos', '20111111111'],
      ['Ernesto Dos', 'VALOR AGREGADO', 1, 'Valor Uno', '30000000001'],
    ]);

    const participation = sheets.get('Participación')?.values ?? [];
    expect(participation[0]).toEqual([
      'Expositor',
      'Email',
      'Empresa',
      'Invitación',
      'Último ingreso (hora de Buenos Aires)',
      'CONSUMO',
      'VALOR AGREGADO',
    ]);
    expect(
      participation
        .slice(1)
        .map((r) => [r[0], r[5], r[6]])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ['Elena Uno', 2, 0],
      ['Ernesto Dos', 2, 1],
      ['Eva Sin Votos', 0, 0],
    ]);

    const corrections = sheets.get('Correcciones')?.values ?? [];
    expect(corrections).toEqual([
      ['Fecha (hora de Buenos Aires)', 'Quién', 'Acción', 'Motivo', 'Detalle', 'Antes', 'Después'],
      [
        wallClock(t.clock.now().toISOString(), TEST_TIMEZONE),
        'Ana Administradora',
        'Voto corregido',
        'Pedido del expositor',
        null,
        expect.stringContaining('Beta Control · Razón Social 20222222222 S.A. · 20222222222'),
        expect.stringContaining('Beta Corregida · Beta S.A. · 20222222222 · Carla'),
      ],
    ]);
  });

  it('writes a stored correction that does not fit its action as an unreadable row', async () => {
    const { db } = app;
    const other = (await seedEvent(db, { name: 'Ilegible' })).id;
    const adminId = app.admin.id;
    const at = app.t.clock.now().toISOString();
    const raw = (action: string, details: string) =>
      db
        .insertInto('audit_log')
        .values({
          at,
          actor_role: 'admin',
          actor_id: adminId,
          actor_email: null,
          action,
          entity_type: 'nomination',
          entity_id: null,
          event_id: other,
          details,
        })
        .execute();
    await raw('vote.edit', '{"category":"consumption","order":');
    await raw('vote.edit', '{"category":"consumption","order":1,"reason":"typo","before":{}}');
    await raw('exhibitor.removed', '[]');
    await raw('future.action', '{}');
    const { sheets } = await readWorkbook(await exported(app, other));
    const when = wallClock(at, TEST_TIMEZONE);
    const who = 'Ana Administradora';
    expect(sheets.get('Correcciones')?.values.slice(1)).toEqual([
      [when, who, 'Voto corregido', null, MSG.auditDetailUnreadable, null, null],
      [when, who, 'Voto corregido', null, MSG.auditDetailUnreadable, null, null],
      [when, who, 'Expositor quitado', null, MSG.auditDetailUnreadable, null, null],
      [when, who, 'future.action', null, MSG.auditDetailUnreadable, null, null],
    ]);
  });

  it('reads as words and dates: no keys, ids or ISO text; headers frozen and filtered; participation sorted', async () => {
    const { db, t } = app;
    const readable = (await seedEvent(db, { name: 'Legible' })).id;
    const adminId = app.admin.id;
    // Spanish order: accents and case aside, Ñ after N; base-equal companies then by name.
    const people = [
      ['Zoe Zeta', 'Zeta SRL'],
      ['Bruno Bravo', 'Alvarez Hnos'],
      ['Diego Díaz', 'Ñandú SA'],
      ['Ángel Álvarez', 'Álvarez Hnos'],
      ['Olga Oeste', 'Oeste SA'],
      ['Nora Norte', 'Norte SA'],
      ['Carla Cruz', 'beta'],
    ] as const;
    const ids = new Map<string, string>();
    for (const [fullName, company] of people) {
      const id = (await seedExhibitor(db, { fullName, company })).id;
      ids.set(fullName, id);
      await seedMembership(db, readable, id);
    }
    const angel = ids.get('Ángel Álvarez') ?? '';
    const signedInAt = '2026-03-05T17:07:00.000Z';
    // The sign-in in which Ángel opened this event (participation counts sign-ins per event).
    await db
      .updateTable('event_exhibitors')
      .set({ last_signed_in_at: signedInAt })
      .where('event_id', '=', readable)
      .where('exhibitor_id', '=', angel)
      .execute();
    const invitation = newId();
    await db
      .insertInto('mail_outbox')
      .values({
        id: invitation,
        template: 'invitation',
        params: '{}',
        to_address: 'angel@expo.test',
        status: 'sent',
        attempts: 1,
        next_attempt_at: T1,
        locked_until: null,
        last_error: null,
        subject: null,
        sent_at: T1,
        event_id: readable,
        exhibitor_id: angel,
        created_at: T1,
      })
      .execute();
    await db
      .updateTable('event_exhibitors')
      .set({ invitation_message_id: invitation })
      .where('event_id', '=', readable)
      .where('exhibitor_id', '=', angel)
      .execute();
    const recorded = everyHistoryAction(readable, angel);
    expect(missingHistoryActions(recorded)).toEqual([]);
    await recordEntries(t, adminId, recorded);

    const { sheets } = await readWorkbook(await exported(app, readable));
    expect(sheets.size).toBe(5);
    for (const [name, sheet] of sheets) {
      const rows = sheet.values.length;
      const lastColumn = String.fromCharCode(64 + (sheet.values[0]?.length ?? 0));
      expect(sheet.views, name).toEqual([
        expect.objectContaining({ state: 'frozen', ySplit: 1, topLeftCell: 'A2' }),
      ]);
      expect(sheet.autoFilter, name).toBe(`A1:${lastColumn}${rows}`);
      // Sized to the content, within bounds: never Excel's default for every column.
      for (const width of sheet.widths) {
        expect(width, name).toBeGreaterThanOrEqual(8);
        expect(width, name).toBeLessThanOrEqual(60);
      }
      for (const row of sheet.values) {
        for (const cell of row) {
          if (typeof cell !== 'string') continue;
          expect(cell, name).not.toMatch(RAW_KEY);
          expect(cell, name).not.toMatch(ISO_INSTANT);
        }
      }
    }

    const corrections = sheets.get('Correcciones')?.values ?? [];
    // The detail column is as wide as its longest detail allows (bounded), not as its header.
    expect(sheets.get('Correcciones')?.widths[4]).toBe(60);
    expect(corrections.slice(1).map((row) => row[2])).toEqual(
      recorded.map((entry) => AUDIT_ACTIONS[entry.action].label),
    );
    for (const row of corrections.slice(1)) {
      expect(row[0]).toEqual(wallClock(t.clock.now().toISOString(), TEST_TIMEZONE));
      expect(row[1]).toBe('Ana Administradora');
      for (const cell of row.slice(3)) expect(String(cell ?? '')).not.toMatch(UUID);
    }
    const merge = corrections.find((row) => row[2] === 'Nominados unificados');
    expect(merge?.[4]).toBe('CONSUMO: Beta (20222222222) → Alfa (20111111111); 1 lista modificada');

    const participation = sheets.get('Participación')?.values ?? [];
    expect(participation.slice(1).map((row) => [row[2], row[0], row[3], row[4]])).toEqual([
      ['Álvarez Hnos', 'Ángel Álvarez', 'enviada', wallClock(signedInAt, TEST_TIMEZONE)],
      ['Alvarez Hnos', 'Bruno Bravo', 'no enviada', null],
      ['beta', 'Carla Cruz', 'no enviada', null],
      ['Norte SA', 'Nora Norte', 'no enviada', null],
      ['Ñandú SA', 'Diego Díaz', 'no enviada', null],
      ['Oeste SA', 'Olga Oeste', 'no enviada', null],
      ['Zeta SRL', 'Zoe Zeta', 'no enviada', null],
    ]);
    // Buenos Aires is three hours behind UTC: 17:07 there reads 14:07.
    expect(participation[1]?.[4]).toEqual(new Date('2026-03-05T14:07:00.000Z'));
  });

  it('keeps XML-invalid characters out of the file', async () => {
    const { db } = app;
    const other = (await seedEvent(db, { name: 'Control' })).id;
    await seedMembership(db, other, e1);
    await seedNominations(db, {
      eventId: other,
      exhibitorId: e1,
      category: 'consumption',
      nominees: [{ fiscalId: '20999999999', name: 'Con\u0001tro\u001fl\uffff', nominatedAt: T1 }],
    });
    const { sheets } = await readWorkbook(await exported(app, other));
    expect(sheets.get('CONSUMO')?.values[1]?.[2]).toBe('Control');
  });
});

describe('a workbook longer than one read', () => {
  // More rows than the export reads at a time (250 votes or exhibitors, 500 ranking rows): the
  // pages on SQLite and the cursor's chunks on PostgreSQL join up with no row lost or repeated,
  // and positions and tie-breaks carry on across them.
  const EXHIBITORS = 600;
  const FISCAL_IDS = 550;
  const fiscalId = (k: number) => `27${String(k).padStart(9, '0')}`;
  const name = (i: number) => `Expositor ${String(i).padStart(3, '0')}`;
  const app = useTestApp();
  let eventId: string;

  beforeAll(async () => {
    const { db } = app;
    eventId = (await seedEvent(db, { name: 'Premios Largos' })).id;
    const ids = Array.from({ length: EXHIBITORS }, () => newId());
    await db
      .insertInto('exhibitors')
      .values(
        ids.map((id, i) => ({
          id,
          email: `largo${i}@empresa.test`,
          full_name: name(i),
          company: 'Distribuidora Norte',
          created_at: T1,
          updated_at: T1,
        })),
      )
      .execute();
    await db
      .insertInto('event_exhibitors')
      .values(
        ids.map((id) => ({
          event_id: eventId,
          exhibitor_id: id,
          invited_by: null,
          invitation_message_id: null,
          created_at: T1,
        })),
      )
      .execute();
    await db
      .insertInto('nomination_lists')
      .values(
        ids.map((id) => ({
          event_id: eventId,
          exhibitor_id: id,
          category: 'consumption' as const,
          version: 1,
          updated_at: T1,
        })),
      )
      .execute();
    // Exhibitor i puts fiscal id i mod 550 first: the first 50 get two first places.
    for (let start = 0; start < EXHIBITORS; start += 200) {
      await db
        .insertInto('nominations')
        .values(
          ids.slice(start, start + 200).map((id, j) => {
            const fiscal = fiscalId((start + j) % FISCAL_IDS);
            return {
              event_id: eventId,
              exhibitor_id: id,
              category: 'consumption' as const,
              list_order: 1,
              fiscal_id: fiscal,
              name: `Reseller ${fiscal}`,
              registered_name: `Razón Social ${fiscal} S.A.`,
              contact_name: 'Carla Contacto',
              contact_position: 'Gerente Comercial',
              phone: '1155550000',
              email: `contacto${fiscal}@reseller.test`,
              location: 'Palermo',
              city: 'Buenos Aires',
              nominated_at: T1,
              updated_at: T1,
            };
          }),
        )
        .execute();
    }
  });

  it('holds every ranking row, vote and exhibitor once, in order', async () => {
    const { sheets } = await readWorkbook(await exported(app, eventId));

    const ranking = Array.from({ length: FISCAL_IDS }, (_, k) => {
      const fiscal = fiscalId(k);
      const twice = k < EXHIBITORS - FISCAL_IDS;
      const first = k === 0 ? null : k === EXHIBITORS - FISCAL_IDS ? 'Puntos' : 'Empate';
      return [
        twice ? 1 : EXHIBITORS - FISCAL_IDS + 1,
        fiscal,
        `Reseller ${fiscal}`,
        `Razón Social ${fiscal} S.A.`,
        twice ? 2 : 1,
        0,
        0,
        0,
        0,
        twice ? 10 : 5,
        twice ? 2 : 1,
        first,
      ];
    });
    expect(sheets.get('CONSUMO')?.values.slice(1)).toEqual(ranking);

    const votes = (sheets.get('Votos')?.values.slice(1) ?? []).map((r) => `${r[0]} ${r[6]}`);
    expect(votes.toSorted()).toEqual(
      Array.from({ length: EXHIBITORS }, (_, i) => `${name(i)} ${fiscalId(i % FISCAL_IDS)}`),
    );

    // One company: by name, and the names sort as their numbers do.
    const participation = (sheets.get('Participación')?.values.slice(1) ?? []).map((r) => [
      r[0],
      r[5],
      r[6],
    ]);
    expect(participation).toEqual(Array.from({ length: EXHIBITORS }, (_, i) => [name(i), 1, 0]));
  });
});
