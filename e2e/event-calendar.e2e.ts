/**
 * Issue 31 items 3 and 5 in the browser: the event dialog's "Hora de cierre", "Zona horaria" and
 * "Apertura de la votación" (a draft shows "Borrador" in the list), and "Vista previa", the
 * exhibitor's screen read-only for an administrator; on a desktop and at 390 px, each with an
 * accessibility scan.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
import {
  DESKTOP,
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  screenshotsIn,
  tableRows,
} from '../test/helpers/browser.ts';
import { seedEvent } from '../test/helpers/seed.ts';
import { dateIn, settled, useBrowserApp } from '../test/helpers/browser-fixture.ts';

const ZONE = 'America/Argentina/Buenos_Aires';
const shot = screenshotsIn('/tmp/shots-event-calendar');

const typed = (iso: string) => iso.split('-').reverse().join('/');
const displayed = (iso: string) =>
  iso
    .split('-')
    .reverse()
    .map((part, i) => (i < 2 ? String(Number(part)) : part))
    .join('-');

describe('the event calendar and the preview (issue 31 items 3 and 5)', () => {
  const app = useBrowserApp();
  let open: { id: string; name: string; voteDeadline: string };

  beforeAll(async () => {
    const db = app.db;
    open = await seedEvent(db, {
      name: 'Premios Vista',
      eventDate: dateIn(30),
      voteDeadline: dateIn(20),
    });
  });

  it('"Nuevo evento" offers the closing hour, the zone and an opening; a draft reads "Borrador"', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await app.adminPage(viewport);
      await page.goto('/admin');
      await page.getByRole('button', { name: 'nuevo', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Nuevo evento' });
      await settled(dialog);
      expect(await dialog.getByLabel('Hora de cierre').inputValue()).toBe('23:59');
      expect(await dialog.getByLabel('Zona horaria').inputValue()).toBe(ZONE);
      expect(await dialog.getByLabel('Apertura de la votación').inputValue()).toBe('');
      await dialog.getByText('Fechas y horas en hora de Buenos Aires').waitFor();
      await expectAccessible(page);
      if (viewport === PHONE) expect(await hasHorizontalScroll(page)).toBe(false);
      await shot(page, `new-event-${viewport.width}`);
      const name = `Premios Borrador ${viewport.width}`;
      await dialog.getByRole('textbox', { name: 'Nombre', exact: true }).fill(name);
      await dialog.getByLabel('Fecha del evento').fill(typed(dateIn(40)));
      await dialog.getByLabel('Fecha límite').fill(typed(dateIn(30)));
      await dialog.getByLabel('Hora de cierre').fill('18:00');
      await dialog.getByLabel('Zona horaria').selectOption('Europe/Madrid');
      await dialog.getByLabel('Apertura de la votación').fill(`${dateIn(10)}T09:00`);
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.goto('/admin');
      await page.getByRole('link', { name }).waitFor();
      const rows = await tableRows(page, 'Eventos', { exact: true });
      expect(rows.find((row) => row[0] === name)?.at(-1)).toBe('Borrador');
      const row = await app.db
        .selectFrom('events')
        .select(['close_time', 'time_zone', 'voting_opens_at'])
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ close_time: '18:00', time_zone: 'Europe/Madrid' });
      // 09:00 in Madrid is 07:00 or 08:00 UTC, by the season.
      expect(row.voting_opens_at).toMatch(new RegExp(`^${dateIn(10)}T0[78]:00:00.000Z$`));
      await context.close();
    }
    // Two viewports, each with two accessibility scans.
  }, 180_000);

  it('an opening after the close is refused in the dialog with its message', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${open.id}`);
    await page.getByRole('button', { name: 'Editar evento' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar evento' });
    await settled(dialog);
    await dialog.getByLabel('Apertura de la votación').fill(`${dateIn(21)}T09:00`);
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.getByText(MSG.openingAfterClose).first().waitFor();
    await expectAccessible(page);
    await context.close();
  }, 180_000);

  it('"Vista previa" shows the exhibitor screen read-only, with the deadline, hour and zone', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await app.adminPage(viewport);
      await page.goto(`/admin/event/${open.id}`);
      await page.getByRole('button', { name: 'Vista previa' }).click();
      await page.waitForURL(`**/admin/event/${open.id}/preview`);
      await page.getByRole('heading', { level: 1, name: open.name }).waitFor();
      await page.getByText(MSG.previewNotice).waitFor();
      await page
        .getByText(
          `La votación cierra el ${displayed(open.voteDeadline)} a las 23:59 (hora de Buenos Aires)`,
        )
        .waitFor();
      await page.getByRole('tab', { name: /CONSUMO 0\/5$/ }).waitFor();
      await expectAccessible(page);
      if (viewport === PHONE) expect(await hasHorizontalScroll(page)).toBe(false);
      await shot(page, `preview-${viewport.width}`);
      // The form is the exhibitor's; saving it changes nothing.
      await page.getByRole('button', { name: 'Nominar' }).click();
      const form = page.getByRole('dialog', { name: 'Nominar a un reseller' });
      await form.waitFor();
      await expectAccessible(page);
      await context.close();
    }
    const saved = await app.db
      .selectFrom('nomination_lists')
      .select('event_id')
      .where('event_id', '=', open.id)
      .execute();
    expect(saved).toEqual([]);
  }, 180_000);
});
