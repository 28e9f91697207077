import { describe, expect, it } from 'vitest';
import { enqueueMail } from '../../src/server/mail/outbox.ts';
import { categorySheetNames } from '../../src/server/modules/ranking/event-workbook.ts';
import { RANKING_HEADERS } from '../../src/server/modules/ranking/export.ts';
import { participation, reminderPlan, sendReminder } from '../../src/shared/api/participation.ts';
import { history } from '../../src/shared/api/results.ts';
import { addNominee } from '../../src/shared/api/nominations.ts';
import {
  filterParticipation,
  nominationCountText,
  votedInCategoryLabel,
  type ParticipationRow,
} from '../../src/shared/schemas/participation.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { renameCategory, seedCategory } from '../helpers/categories.ts';
import { nomineeInput } from '../helpers/nominee.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { openWorkbook } from '../helpers/workbook.ts';

const SECURITY = 'Mejor partner de seguridad';
const ids = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ fiscalId: `${prefix}${i + 1}` }));

/**
 * An event of three categories: CONSUMO renamed "CONSUMO MASIVO", VALOR AGREGADO, and a third one
 * of 3 nominees and one point per nomination. Ana has every list full, Bruno 2 of 3 in the third,
 * Carla a single nomination in the third only, Dora none.
 */
describe('participation, mails, exports and history follow the event’s categories', () => {
  const app = useTestApp();
  let n = 0;

  async function threeCategoryEvent() {
    const event = await seedEvent(app.db, { name: `Premios Seguridad ${++n}` });
    await renameCategory(app.db, event.id, 'consumption', 'CONSUMO MASIVO');
    await seedCategory(app.db, event.id, {
      address: 'seguridad',
      name: SECURITY,
      nomineeLimit: 3,
      scoring: 'one',
      position: 3,
    });
    const member = async (fullName: string) => {
      const email = `${fullName.toLowerCase()}.${n}@empresa.test`;
      const exhibitor = await seedExhibitor(app.db, { fullName, email, company: 'Empresa' });
      await seedMembership(app.db, event.id, exhibitor.id);
      return { ...exhibitor, email };
    };
    const ana = await member('Ana');
    const bruno = await member('Bruno');
    const carla = await member('Carla');
    const dora = await member('Dora');
    const lists: [typeof ana, string, { fiscalId: string; name?: string }[]][] = [
      [ana, 'consumption', ids('301', 5)],
      [ana, 'value', ids('302', 5)],
      [ana, 'seguridad', ids('40', 3)],
      [bruno, 'consumption', ids('301', 5)],
      [bruno, 'value', ids('302', 5)],
      [bruno, 'seguridad', [{ fiscalId: '402' }, { fiscalId: '401' }]],
      [carla, 'seguridad', [{ fiscalId: '402' }]],
    ];
    for (const [exhibitor, category, nominees] of lists) {
      await seedNominations(app.db, {
        eventId: event.id,
        exhibitorId: exhibitor.id,
        category,
        nominees,
      });
    }
    return { event, ana, bruno, carla, dora };
  }

  it('shows "{k} de {n}" and "Votaron en {NOMBRE}" per category, and Incompletos by each limit', async () => {
    const { event } = await threeCategoryEvent();
    const answer = await app.api.call(participation, { params: { eventId: event.id } });
    expect(
      answer.categories.map((c) => [c.address, c.name, c.nomineeLimit, c.scoring, c.voted]),
    ).toEqual([
      ['consumption', 'CONSUMO MASIVO', 5, 'place', 2],
      ['value', 'VALOR AGREGADO', 5, 'place', 2],
      ['seguridad', SECURITY, 3, 'one', 3],
    ]);
    expect(answer.categories.map((c) => `${votedInCategoryLabel(c.name)}: ${c.voted}`)).toEqual([
      'Votaron en CONSUMO MASIVO: 2',
      'Votaron en VALOR AGREGADO: 2',
      `Votaron en ${SECURITY}: 3`,
    ]);
    // The two default categories' figures stay where the screen reads them today.
    expect(answer.figures).toMatchObject({ votedConsumption: 2, votedValue: 2, noVotes: 1 });
    expect(
      answer.exhibitors.map((row) => [
        row.fullName,
        ...row.categories.map((c) => nominationCountText(c.nominations, c.nomineeLimit)),
      ]),
    ).toEqual([
      ['Ana', '5 de 5', '5 de 5', '3 de 3'],
      ['Bruno', '5 de 5', '5 de 5', '2 de 3'],
      ['Carla', '0 de 5', '0 de 5', '1 de 3'],
      ['Dora', '0 de 5', '0 de 5', '0 de 3'],
    ]);
    expect(
      answer.exhibitors.map((row) => [row.nominations.consumption, row.nominations.value]),
    ).toEqual([
      [5, 5],
      [5, 5],
      [0, 0],
      [0, 0],
    ]);
    const names = (rows: ParticipationRow[]) => rows.map((row) => row.fullName);
    expect(names(filterParticipation(answer.exhibitors, 'complete', ''))).toEqual(['Ana']);
    expect(names(filterParticipation(answer.exhibitors, 'incomplete', ''))).toEqual([
      'Bruno',
      'Carla',
      'Dora',
    ]);
    expect(names(filterParticipation(answer.exhibitors, 'noVotes', ''))).toEqual(['Dora']);

    // The export: one column per category, named by it, with "{k} de {n}".
    const exported = await app.t.request({
      method: 'GET',
      url: `/api/events/${event.id}/participation/export?show=incomplete`,
      as: app.as,
    });
    expect(exported.statusCode).toBe(200);
    const sheet = (await openWorkbook(exported.rawPayload)).worksheets[0];
    const cells = (row: number) => (sheet?.getRow(row).values as unknown[]).slice(1);
    expect(cells(1).slice(5)).toEqual(['CONSUMO MASIVO', 'VALOR AGREGADO', SECURITY]);
    expect([2, 3, 4].map((row) => [cells(row)[0], ...cells(row).slice(5)])).toEqual([
      ['Bruno', '5 de 5', '5 de 5', '2 de 3'],
      ['Carla', '0 de 5', '0 de 5', '1 de 3'],
      ['Dora', '0 de 5', '0 de 5', '0 de 3'],
    ]);
  });

  it('reminds the incomplete by each category’s limit, and the reminders and receipts name every category in order', async () => {
    const { event, ana, bruno } = await threeCategoryEvent();
    const params = { eventId: event.id };
    // Ana (full in all three) is complete; two of three in the third category is not.
    expect(await app.api.call(reminderPlan, { params, query: { to: 'incomplete' } })).toEqual({
      recipients: 3,
      remindedRecently: 0,
    });
    await app.api.call(sendReminder, { params, query: { to: 'incomplete' } });
    await app.t.deliverMail();
    expect(app.t.smtp.allTo(ana.email)).toHaveLength(0);
    expect(app.t.smtp.latestTo(bruno.email)?.subject).toBe(
      `Recordatorio: completa tus nominaciones en ${event.name}`,
    );
    expect(
      app.t.smtp
        .latestTo(bruno.email)
        ?.text.split('\n')
        .filter((line) => line.startsWith('Nominaciones en ')),
    ).toEqual([
      'Nominaciones en CONSUMO MASIVO: 5 de 5.',
      'Nominaciones en VALOR AGREGADO: 5 de 5.',
      `Nominaciones en ${SECURITY}: 2 de 3.`,
    ]);

    // The scheduled reminder: skipped for Ana, Bruno's counts per category by name and limit.
    await app.db.transaction().execute(async (tx) => {
      for (const exhibitor of [ana, bruno]) {
        await enqueueMail(tx, app.t.clock.now(), {
          template: 'voting-reminder',
          to: exhibitor.email,
          params: { eventId: event.id, exhibitorId: exhibitor.id, kind: 'threeDaysBefore' },
          eventId: event.id,
          exhibitorId: exhibitor.id,
        });
        await enqueueMail(tx, app.t.clock.now(), {
          template: 'nomination-receipt',
          to: exhibitor.email,
          params: { eventId: event.id, exhibitorId: exhibitor.id },
          eventId: event.id,
          exhibitorId: exhibitor.id,
        });
      }
      await enqueueMail(tx, app.t.clock.now(), {
        template: 'exhibitor-invitation',
        to: 'nueva@empresa.test',
        params: {
          adminName: 'Admin',
          eventName: event.name,
          voteDeadline: event.voteDeadline,
          eventId: event.id,
        },
        eventId: event.id,
      });
    });
    await app.t.deliverMail();
    const brunoMails = app.t.smtp.allTo(bruno.email);
    const reminder = brunoMails.find((mail) => mail.subject.startsWith('Faltan 3 días'));
    const reminderCounts = reminder?.text
      .split('\n')
      .filter((line) => line.startsWith('Nominaciones en '));
    expect(reminderCounts).toEqual([
      'Nominaciones en CONSUMO MASIVO: 5 de 5.',
      'Nominaciones en VALOR AGREGADO: 5 de 5.',
      `Nominaciones en ${SECURITY}: 2 de 3.`,
    ]);
    expect(
      app.t.smtp.allTo(ana.email).filter((mail) => mail.subject.startsWith('Faltan')),
    ).toHaveLength(0);

    const receipt = brunoMails.find((mail) => mail.subject.startsWith('Tus nominaciones'));
    const text = receipt?.text ?? '';
    expect(text).toContain('CONSUMO MASIVO:\n\n1. ');
    expect(text).toContain(`${SECURITY}:\n\n1. Reseller 402 (ID fiscal 402)\n\n2. Reseller 401`);
    const order = ['CONSUMO MASIVO:', 'VALOR AGREGADO:', `${SECURITY}:`].map((title) =>
      text.indexOf(title),
    );
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > (order[i - 1] ?? 0)))).toBe(true);

    expect(app.t.smtp.latestTo('nueva@empresa.test')?.text).toContain(
      `Puedes nominar y ordenar resellers en cada categoría (hasta 5 en CONSUMO MASIVO, 5 en VALOR AGREGADO y 3 en ${SECURITY}) hasta el 1/7/2026.`,
    );
  });

  it('exports each category as {evento}-{address}.xlsx, and the workbook has a sheet per category with 1°…n°', async () => {
    const { event } = await threeCategoryEvent();
    const single = await app.t.request({
      method: 'GET',
      url: `/api/events/${event.id}/ranking/seguridad/export`,
      as: app.as,
    });
    expect(single.statusCode).toBe(200);
    expect(single.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent(`${event.name}-seguridad.xlsx`)}`,
    );
    const data = (await openWorkbook(single.rawPayload)).worksheets[0];
    expect((data?.getRow(1).values as unknown[]).slice(1)).toEqual(RANKING_HEADERS);
    // One point per nomination: 402 three, 401 two, 403 one.
    expect(
      [2, 3, 4].map((row) => {
        const values = (data?.getRow(row).values as unknown[]).slice(1);
        return [values[2], values.at(-1)];
      }),
    ).toEqual([
      ['402', 3],
      ['401', 2],
      ['403', 1],
    ]);

    const whole = await app.t.request({
      method: 'GET',
      url: `/api/events/${event.id}/export`,
      as: app.as,
    });
    expect(whole.statusCode).toBe(200);
    const workbook = await openWorkbook(whole.rawPayload);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'CONSUMO MASIVO',
      'VALOR AGREGADO',
      SECURITY,
      'Votos',
      'Participación',
      'Correcciones',
    ]);
    const security = workbook.getWorksheet(SECURITY);
    const row = (sheet: typeof security, r: number) =>
      (sheet?.getRow(r).values as unknown[]).slice(1);
    expect(row(security, 1)).toEqual([
      'Posición',
      'ID fiscal',
      'Nombre del reseller',
      'Razón social',
      '1°',
      '2°',
      '3°',
      'Puntos',
      'Nominaciones',
      'Desempate',
    ]);
    // 402: first for Bruno and Carla, second for Ana; 401: first for Ana, second for Bruno.
    expect(
      [2, 3, 4].map((r) => [...row(security, r).slice(0, 2), ...row(security, r).slice(4, 9)]),
    ).toEqual([
      [1, '402', 2, 1, 0, 3, 3],
      [2, '401', 1, 1, 0, 2, 2],
      [3, '403', 0, 0, 1, 1, 1],
    ]);
    expect(row(workbook.getWorksheet('CONSUMO MASIVO'), 1).slice(4, 10)).toEqual([
      '1°',
      '2°',
      '3°',
      '4°',
      '5°',
      'Puntos',
    ]);
    expect(row(workbook.getWorksheet('Participación'), 1).slice(5)).toEqual([
      'CONSUMO MASIVO',
      'VALOR AGREGADO',
      SECURITY,
    ]);
    // The Votos sheet names each category by its name.
    const votes = workbook.getWorksheet('Votos');
    const categoriesInVotes = new Set<unknown>();
    votes?.eachRow((r, index) => {
      if (index > 1) categoriesInVotes.add((r.values as unknown[])[3]);
    });
    expect([...categoriesInVotes].sort()).toEqual(['CONSUMO MASIVO', SECURITY, 'VALOR AGREGADO']);
  });

  it('names the workbook’s sheets by Excel’s rules: no forbidden characters, 31 at most, unique ignoring case', async () => {
    const event = await seedEvent(app.db, { name: `Premios Hojas ${++n}` });
    const extra = [
      'Nube: pública/privada [2027]?',
      'Mejor partner de soluciones en la nube A',
      'Mejor partner de soluciones en la nube B',
      'votos',
      "'Citado'",
    ];
    for (const [index, name] of extra.entries()) {
      await seedCategory(app.db, event.id, {
        address: `extra-${index + 1}`,
        name,
        nomineeLimit: 1,
        scoring: 'place',
        position: index + 3,
      });
    }
    const expected = [
      'CONSUMO',
      'VALOR AGREGADO',
      'Nube pública privada 2027',
      'Mejor partner de soluciones en',
      'Mejor partner de soluciones (2)',
      'votos (2)',
      'Citado',
      'Votos',
      'Participación',
      'Correcciones',
    ];
    const whole = await app.t.request({
      method: 'GET',
      url: `/api/events/${event.id}/export`,
      as: app.as,
    });
    expect(whole.statusCode).toBe(200);
    const names = (await openWorkbook(whole.rawPayload)).worksheets.map((sheet) => sheet.name);
    expect(names).toEqual(expected);
    expect(names.every((name) => name.length <= 31 && !/[:\\/?*[\]]/.test(name))).toBe(true);
    // Case-insensitive clashes among the categories themselves, and a blank name.
    expect(categorySheetNames(['Seguridad', 'SEGURIDAD', 'seguridad', ' ? ', ''])).toEqual([
      'Seguridad',
      'SEGURIDAD (2)',
      'seguridad (3)',
      'Categoría',
      'Categoría (2)',
    ]);
  });

  it('Historial names a category by its name', async () => {
    const { event, carla } = await threeCategoryEvent();
    const carlaClient = app.client(await app.t.signIn({ role: 'exh', exhibitorId: carla.id }));
    const own = await app.db
      .selectFrom('nomination_lists')
      .select('version')
      .where('event_id', '=', event.id)
      .where('exhibitor_id', '=', carla.id)
      .where('category', '=', 'seguridad')
      .executeTakeFirstOrThrow();
    await carlaClient.call(addNominee, {
      params: { eventId: event.id, category: 'seguridad' },
      body: {
        ...nomineeInput('20111111112', { name: 'Alfa Redes' }),
        version: Number(own.version),
      },
    });
    const entries = (await app.api.call(history, { params: { eventId: event.id }, query: {} }))
      .entries;
    expect(entries[0]?.detail).toBe(
      `${SECURITY}: se agregó Alfa Redes (20111111112) en el puesto 2`,
    );
  });
});
