/**
 * The event header on a phone: the eight header actions go under the event's name. Beside it they
 * left a long name one letter wide ("Premios Duplicados del Padrón" read as a column of letters).
 */
import { expect, it } from 'vitest';
import { expectAccessible, PHONE } from '../test/helpers/browser.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';
import { seedEvent } from '../test/helpers/seed.ts';

const app = useBrowserApp({ now: '2026-06-01T12:00:00.000Z' });
const NAME = 'Premios Duplicados del Padrón';

it('shows a long event name across the phone, its actions under it', async () => {
  const { id } = await seedEvent(app.db, {
    name: NAME,
    eventDate: '2026-07-15',
    voteDeadline: '2026-07-01',
  });
  const { context, page } = await app.adminPage(PHONE);
  await page.goto(`${app.server.url}/admin/event/${id}/consumption`);
  const title = page.getByRole('heading', { level: 1, name: NAME });
  const edit = page.getByRole('button', { name: 'Editar evento' });
  await edit.waitFor();
  const titleBox = await title.boundingBox();
  const editBox = await edit.boundingBox();
  // Two lines at most at 390 px, not one letter per line.
  expect(titleBox?.width).toBeGreaterThan(300);
  expect(titleBox?.height).toBeLessThan(100);
  expect(editBox?.y).toBeGreaterThan((titleBox?.y ?? 0) + (titleBox?.height ?? 0));
  await expectAccessible(page);
  await context.close();
}, 120_000);
