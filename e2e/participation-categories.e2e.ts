/**
 * Issue 26 item 2 in the browser, participation: an event with a third category of 3 nominees
 * shows one column per category in the event's order ("{k} de {n}" by the category's own limit)
 * and one figure "Votaron en {NOMBRE}: {k}" per category; on a desktop and at 390 px, each with an
 * accessibility scan.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { seedCategory } from '../test/helpers/categories.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import {
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  screenshotsIn,
  tableRows,
} from '../test/helpers/browser.ts';
import { dateIn, useBrowserApp, visible } from '../test/helpers/browser-fixture.ts';

const shot = screenshotsIn('/tmp/shots-participation-categories');
const THIRD = 'Mejor partner de seguridad';

describe('participation follows the event categories (issue 26, item 2)', () => {
  const app = useBrowserApp();
  let eventId: string;

  beforeAll(async () => {
    const db = app.db;
    eventId = (
      await seedEvent(db, {
        name: 'Premios con Seguridad',
        eventDate: dateIn(30),
        voteDeadline: dateIn(20),
      })
    ).id;
    await seedCategory(db, eventId, {
      address: 'mejor-partner-de-seguridad',
      name: THIRD,
      nomineeLimit: 3,
      scoring: 'one',
      position: 3,
    });
    const lucia = await seedExhibitor(db, {
      fullName: 'Lucía López',
      email: 'lucia@norte.test',
      company: 'Norte SA',
    });
    const martin = await seedExhibitor(db, {
      fullName: 'Martín Pérez',
      email: 'martin@sur.test',
      company: 'Sur SRL',
    });
    const yanina = await seedExhibitor(db, {
      fullName: 'Yanina Ruiz',
      email: 'yanina@oeste.test',
      company: 'Oeste SA',
    });
    for (const exhibitor of [lucia, martin, yanina]) {
      await seedMembership(db, eventId, exhibitor.id);
    }
    // Lucía: 1 in CONSUMO and a full list of 3 in the third category.
    await seedNominations(db, {
      eventId,
      exhibitorId: lucia.id,
      category: 'consumption',
      nominees: [{ fiscalId: '20111111111' }],
    });
    await seedNominations(db, {
      eventId,
      exhibitorId: lucia.id,
      category: 'mejor-partner-de-seguridad',
      nominees: [
        { fiscalId: '20222222222' },
        { fiscalId: '20333333333' },
        { fiscalId: '20444444444' },
      ],
    });
    // Martín: 2 of 3 in the third category only.
    await seedNominations(db, {
      eventId,
      exhibitorId: martin.id,
      category: 'mejor-partner-de-seguridad',
      nominees: [{ fiscalId: '20555555555' }, { fiscalId: '20666666666' }],
    });
  });

  it('shows a column and a figure for the third category, on a desktop and a phone', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/participation`);
    await visible(page, 'Invitados: 3');
    for (const figure of [
      'Votaron en CONSUMO: 1',
      'Votaron en VALOR AGREGADO: 0',
      `Votaron en ${THIRD}: 2`,
      'Sin votos: 1',
    ]) {
      await visible(page, figure);
    }
    // The figures in order, the categories' in the event's order between "Ingresaron" and
    // "Sin votos"; each is its text and, but for "Invitados", its share of the invited.
    const figures = page.getByRole('list').filter({ hasText: 'Invitados:' }).getByRole('listitem');
    const figureTexts = await figures.evaluateAll((items) =>
      items.map((item) => Array.from(item.children, (part) => part.textContent ?? '')),
    );
    expect(figureTexts).toEqual([
      ['Invitados: 3'],
      ['Invitación entregada: 0', '0 %'],
      ['Invitación con error: 0', '0 %'],
      ['Ingresaron: 0', '0 %'],
      ['Votaron en CONSUMO: 1', '33 %'],
      ['Votaron en VALOR AGREGADO: 0', '0 %'],
      [`Votaron en ${THIRD}: 2`, '67 %'],
      ['Sin votos: 1', '33 %'],
    ]);

    const columns = await page
      .getByRole('table', { name: 'Participación' })
      .getByRole('columnheader')
      .allInnerTexts();
    expect(columns.map((c) => c.trim())).toEqual([
      'Nombre completo',
      'Email',
      'Empresa',
      'Invitación',
      'Último ingreso',
      'CONSUMO',
      'VALOR AGREGADO',
      THIRD,
    ]);
    const counts = (await tableRows(page, 'Participación')).map((row) => [row[0], ...row.slice(5)]);
    expect(counts).toEqual([
      ['Lucía López', '1 de 5', '0 de 5', '3 de 3'],
      ['Martín Pérez', '0 de 5', '0 de 5', '2 de 3'],
      ['Yanina Ruiz', '0 de 5', '0 de 5', '0 de 3'],
    ]);
    await expectAccessible(page);
    await shot(page, 'participation-categories-desktop');
    await context.close();

    const phone = await app.adminPage(PHONE);
    await phone.page.goto(`/admin/event/${eventId}/participation`);
    await visible(phone.page, `Votaron en ${THIRD}: 2`);
    const phoneColumns = await phone.page
      .getByRole('table', { name: 'Participación' })
      .getByRole('columnheader')
      .allInnerTexts();
    expect(phoneColumns.map((c) => c.trim()).at(-1)).toBe(THIRD);
    const martin = phone.page.getByRole('row', { name: /Martín Pérez/ });
    expect((await martin.getByRole('cell').allInnerTexts()).at(-1)).toBe('2 de 3');
    expect(await hasHorizontalScroll(phone.page)).toBe(false);
    await expectAccessible(phone.page);
    await shot(phone.page, 'participation-categories-phone');
    await phone.context.close();
  });
});
