/**
 * Issue 32 item 8, the small defects a whole programme run found: each checked on the screen where
 * it showed, at 390 px and 1280 px where the width matters.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_VALUE } from '../src/server/app.ts';
import { MSG } from '../src/shared/messages.ts';
import { DESKTOP, expectAccessible, hasHorizontalScroll, PHONE } from '../test/helpers/browser.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

/** Words of visible column headers that the browser drew on more than one line. */
function headerWordsBrokenInside(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    const linesOf = (node: Text, start: number, end: number) => {
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, end);
      return new Set(
        [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
      ).size;
    };
    for (const th of document.querySelectorAll('th')) {
      if (!(th instanceof HTMLElement) || th.offsetParent === null) continue;
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const word of text.matchAll(/\S+/g)) {
          if (linesOf(node as Text, word.index, word.index + word[0].length) > 1) {
            broken.push(word[0]);
          }
        }
      }
    }
    return broken;
  });
}

/** Dates and instants ("27-11-2026", "27-11-2026 14:05") in table cells drawn on two lines. */
function datesWrapped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const wrapped: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const cell = node.parentElement?.closest('td');
      if (!cell || cell.offsetParent === null) continue;
      const match = /\d{1,2}-\d{1,2}-\d{4}( \d{2}:\d{2})?/.exec(text);
      if (!match) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set(
        [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
      );
      if (lines.size > 1) wrapped.push(match[0]);
    }
    return wrapped;
  });
}

// Screens load slowly on a machine other work shares: a test may take longer than the default.
describe('small defects of a programme run', { timeout: 180_000 }, () => {
  const app = useBrowserApp({
    admin: { fullName: 'Ana Administradora', password: 'Clave-vieja-2026' },
  });
  let pastEventId: string;
  let futureEventId: string;
  let archivedEventId: string;
  let exhibitorId: string;

  beforeAll(async () => {
    const db = app.db;
    pastEventId = (await seedEvent(db, { name: 'Premios Invitación Puesto 2026' })).id;
    futureEventId = (
      await seedEvent(db, {
        name: 'Premios Futuros',
        eventDate: '2027-09-01',
        voteDeadline: '2027-08-01',
      })
    ).id;
    archivedEventId = (await seedEvent(db, { name: 'Premios Archivados' })).id;
    await db
      .updateTable('events')
      .set({ archived_at: '2026-08-01T12:00:00.000Z' })
      .where('id', '=', archivedEventId)
      .execute();
    const names = ['Valentina Sánchez', 'Bartolomé Rodríguez'];
    const ids: string[] = [];
    for (const fullName of names) {
      const exhibitor = await seedExhibitor(db, {
        fullName,
        company: 'Distribuidora Internacional de Tecnología',
      });
      ids.push(exhibitor.id);
      await seedMembership(db, pastEventId, exhibitor.id);
    }
    exhibitorId = ids[0] ?? '';
    await seedNominations(db, {
      eventId: pastEventId,
      exhibitorId: ids[0] ?? '',
      category: 'consumption',
      nominees: [{ fiscalId: '20111111111', name: 'Alfa' }],
    });
    await seedNominations(db, {
      eventId: pastEventId,
      exhibitorId: ids[1] ?? '',
      category: 'consumption',
      nominees: [{ fiscalId: '020111111111', name: 'Alfa Cero' }],
    });
  });

  it('no column header breaks inside a word, and no date wraps, on any table at 390 px and 1280 px', async () => {
    const pages: [string, string][] = [
      ['/admin', 'Premios Futuros'],
      [`/admin/event/${pastEventId}/exhibitors`, 'Valentina Sánchez'],
      [`/admin/event/${pastEventId}/participation`, 'Valentina Sánchez'],
      [`/admin/event/${pastEventId}/consumption`, 'Alfa'],
      [`/admin/event/${pastEventId}/nominee?category=consumption&fiscalId=20111111111`, 'Alfa'],
      [`/admin/event/${pastEventId}/exhibitors/${exhibitorId}`, 'Alfa'],
      [`/admin/event/${pastEventId}/history`, 'Historial'],
      ['/admin/admins', 'Ana Administradora'],
    ];
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page } = await app.adminPage(viewport);
      for (const [path, shown] of pages) {
        await page.goto(path);
        await page.getByText(shown).filter({ visible: true }).first().waitFor();
        await page.locator('th').first().waitFor();
        expect({
          path,
          width: viewport.width,
          broken: await headerWordsBrokenInside(page),
        }).toEqual({ path, width: viewport.width, broken: [] });
        expect({ path, width: viewport.width, wrapped: await datesWrapped(page) }).toEqual({
          path,
          width: viewport.width,
          wrapped: [],
        });
        expect(await hasHorizontalScroll(page)).toBe(false);
      }
      await context.close();
    }
    // Sixteen screens on a machine other work shares.
  }, 240_000);

  it('"Deshacer" disappears once a merge is undone', async () => {
    const { context, page } = await app.adminPage();
    const merged = await context.request.post(
      `/api/events/${pastEventId}/duplicates/consumption/merge`,
      {
        headers: { [CSRF_HEADER]: CSRF_VALUE },
        data: { into: '20111111111', from: ['020111111111'] },
      },
    );
    expect(merged.status()).toBe(200);
    await page.goto(`/admin/event/${pastEventId}/history`);
    const history = page.getByRole('table', { name: 'Historial' });
    const undo = history.getByRole('button', { name: 'Deshacer' });
    await undo.waitFor();
    expect(await undo.count()).toBe(1);
    await undo.click();
    await page.getByText(MSG.undoDone).waitFor();
    await history.getByRole('cell', { name: 'Unificación deshecha', exact: true }).waitFor();
    await expect.poll(() => undo.count()).toBe(0);
    await page.reload();
    await history.getByRole('cell', { name: 'Nominados unificados', exact: true }).waitFor();
    expect(await undo.count()).toBe(0);
    await context.close();
  });

  it('a correction without "Motivo" says "Elija un motivo."', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(
      `/admin/event/${pastEventId}/nominee?category=consumption&fiscalId=20111111111`,
    );
    await page.getByRole('button', { name: 'Alfa', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar voto' });
    await dialog.getByLabel('Nombre del reseller').fill('Alfa Corregida');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.getByText('Elija un motivo.', { exact: true }).waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const stored = await app.db
      .selectFrom('nominations')
      .select('name')
      .where('event_id', '=', pastEventId)
      .where('exhibitor_id', '=', exhibitorId)
      .executeTakeFirstOrThrow();
    expect(stored.name).toBe('Alfa');
    await context.close();
  });

  it('"Archivar evento" shows disabled with its reason before the event date, enabled after', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${futureEventId}/exhibitors`);
    const archive = page.getByRole('button', { name: 'Archivar evento' });
    await archive.waitFor();
    expect(await archive.isDisabled()).toBe(true);
    const describedBy = (await archive.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe(MSG.eventNotOver);
    await expectAccessible(page);
    await archive.locator('..').hover();
    await page
      .getByRole('tooltip')
      .getByText(`Archivar evento: ${MSG.eventNotOver}`, { exact: true })
      .waitFor();

    await page.goto(`/admin/event/${pastEventId}/exhibitors`);
    await archive.waitFor();
    expect(await archive.isDisabled()).toBe(false);
    await context.close();
  });

  it('the "Anonimizar datos personales" dialog lists what is removed and what is kept', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(`/admin/event/${archivedEventId}/exhibitors`);
    await page.getByRole('button', { name: 'Anonimizar datos personales' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Anonimizar datos personales?' });
    await dialog.waitFor();
    const lists = dialog.getByRole('list');
    expect(await lists.count()).toBe(2);
    expect(await lists.nth(0).getByRole('listitem').allInnerTexts()).toEqual([
      'los nombres y los emails de los expositores del evento (quien está en otro evento conserva allí su cuenta);',
      'el contacto de cada nominado: nombre, cargo, teléfono y email;',
      'los correos del evento, enviados y pendientes;',
      'los datos personales escritos en el historial.',
    ]);
    expect(await lists.nth(1).getByRole('listitem').allInnerTexts()).toEqual([
      'los ID fiscales, los nombres y las razones sociales de los resellers;',
      'las nominaciones con su orden, el ranking y las planillas;',
      'el historial, sin datos personales.',
    ]);
    await dialog.getByText('Esta acción no puede revertirse', { exact: true }).waitFor();
    await dialog.getByText(/^Se eliminan:/).waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await context.close();
  });

  it('on a phone the event tabs fade at the edge: they scroll', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(`/admin/event/${pastEventId}/exhibitors`);
    const tabs = page.getByRole('tablist', { name: 'Secciones del evento' });
    await tabs.waitFor();
    const frame = await tabs.evaluate((list) => {
      const scroller = list.parentElement as HTMLElement;
      const style = getComputedStyle(scroller);
      return {
        scrolls: scroller.scrollWidth > scroller.clientWidth,
        mask: style.maskImage || style.getPropertyValue('-webkit-mask-image'),
      };
    });
    expect(frame.scrolls).toBe(true);
    expect(frame.mask).toMatch(/^linear-gradient\(to right/);
    await context.close();
  });

  it('"Cambiar contraseña" on Seguridad: the current one, then the new one twice', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto('/admin/security');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cambiar contraseña' });
    await dialog.waitFor();
    await dialog.getByLabel('Contraseña actual').fill('no-es-esta');
    await dialog.getByLabel('Nueva contraseña').fill('Clave-nueva-2027');
    await dialog.getByLabel('Confirmar contraseña').fill('Clave-nueva-2027');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.getByText('La contraseña es incorrecta.', { exact: true }).waitFor();
    await expectAccessible(page);
    expect(await hasHorizontalScroll(page)).toBe(false);

    await dialog.getByLabel('Contraseña actual').fill('Clave-vieja-2026');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText(MSG.ownPasswordChanged, { exact: true }).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const signIn = await context.request.post('/api/auth/password', {
      headers: { [CSRF_HEADER]: CSRF_VALUE },
      data: { email: app.admin.email, password: 'Clave-nueva-2027' },
    });
    expect(signIn.status()).toBe(200);
    await context.close();
  });
});
