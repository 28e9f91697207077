import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nominateInDialog, resellerInput } from '../test/helpers/nominee-dialog.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import {
  DESKTOP,
  expectAccessible,
  hasHorizontalScroll,
  launchBrowser,
  newContext,
  PHONE,
} from '../test/helpers/browser.ts';
import { startServer, type RunningServer } from '../test/helpers/server.ts';
import { signInContext } from '../test/helpers/session.ts';
import { startSmtpServer, type TestSmtpServer } from '../test/helpers/smtp.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

const SHOTS = '/tmp/shots-ceremony';
fs.mkdirSync(SHOTS, { recursive: true });
const webDir = path.resolve(import.meta.dirname, '../dist/web');

describe('receipt for the exhibitor', () => {
  // 12:00 in Buenos Aires, the servers' programme zone.
  const NOW = '2026-06-01T15:00:00.000Z';
  let smtp: TestSmtpServer;
  let dataDir: string;
  let databaseUrl: string;
  let browser: Browser;
  const running: RunningServer[] = [];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-receipt-'));
    databaseUrl = `sqlite:${path.join(dataDir, 'premios.db')}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    for (const server of running) await server.stop();
    await smtp?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows "Guardado" after each save and sends one receipt with the final lists after the edits', async () => {
    const first = await startServer({ databaseUrl, smtp, now: NOW });
    running.push(first);
    const db = first.database.db;
    const event = await seedEvent(db, { name: 'Premios Recibo 2026', voteDeadline: '2026-07-01' });
    const exhibitor = await seedExhibitor(db, {
      fullName: 'Esteban Expositor',
      email: 'esteban.recibo@empresa.test',
    });
    await seedMembership(db, event.id, exhibitor.id);

    const context: BrowserContext = await newContext(browser, first.url, DESKTOP);
    await signInContext(
      context,
      first,
      { role: 'exh', exhibitorId: exhibitor.id },
      { email: exhibitor.email, fullName: exhibitor.fullName },
      new Date(NOW),
    );
    const page = await context.newPage();
    await page.goto(`/exh/event/${event.id}`);
    await page.getByRole('heading', { level: 1, name: event.name }).waitFor();
    expect(await page.getByText(/^Guardado /).count()).toBe(0);

    // Several edits in a row: three nominees, one moved up, one in the other list.
    await nominateInDialog(page, resellerInput('Alfa Sistemas', '307000001'));
    const saved = page.getByRole('status').filter({ hasText: /^Guardado / });
    expect(await saved.innerText()).toMatch(/^Guardado 1-6-2026 12:0\d \(hora de Buenos Aires\)$/);
    await nominateInDialog(page, resellerInput('Beta Redes', '307000002'));
    await nominateInDialog(page, resellerInput('Gamma Datos', '307000003'));
    await page
      .getByRole('tabpanel')
      .getByRole('row')
      .filter({ hasText: 'Gamma Datos' })
      .getByRole('button', { name: 'Subir' })
      .click();
    await page.getByRole('tab', { name: 'Nominación Reseller de VALOR AGREGADO' }).click();
    await nominateInDialog(page, resellerInput('Delta Cloud', '307000004'));
    expect(await saved.innerText()).toMatch(/^Guardado 1-6-2026 12:0\d \(hora de Buenos Aires\)$/);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/saved-desktop.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    expect(await saved.isVisible()).toBe(true);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await page.screenshot({ path: `${SHOTS}/saved-phone.png`, fullPage: true });
    await context.close();

    // Nothing before the lists have rested ten minutes.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(smtp.allTo(exhibitor.email)).toHaveLength(0);
    await first.stop();
    running.pop();

    // The same data a quarter of an hour later: the one receipt goes out, once.
    const later = new Date(Date.parse(NOW) + 15 * 60_000 + 60_000).toISOString();
    const second = await startServer({ databaseUrl, smtp, now: later });
    running.push(second);
    const mail = await smtp.waitFor(exhibitor.email, { timeoutMs: 15_000 });
    expect(mail.subject).toBe('Tus nominaciones en Premios Recibo 2026');
    expect(mail.text).toContain(
      [
        'CONSUMO:',
        '1. Alfa Sistemas (ID fiscal 307000001)',
        '2. Gamma Datos (ID fiscal 307000003)',
        '3. Beta Redes (ID fiscal 307000002)',
        'VALOR AGREGADO:',
        '1. Delta Cloud (ID fiscal 307000004)',
        'La votación cierra el 1/7/2026 a las 23:59 (hora de Buenos Aires).',
      ].join('\n\n'),
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(smtp.allTo(exhibitor.email)).toHaveLength(1);
  });
});

describe('category tab: chart and presentation mode', () => {
  const app = useBrowserApp();
  let eventId: string;
  const eventName = 'Gala de Premios 2026';
  const [A, B, C, D, E, F] = ['2011', '2022', '2033', '2044', '2055', '2066'];
  const names: Record<string, string> = {
    [A]: 'Alfa Redes',
    [B]: 'Beta Sistemas',
    [C]: 'Gama Datos',
    [D]: 'Delta Cloud',
    [E]: 'Épsilon Soft',
    [F]: 'Zeta Norte',
  };

  beforeAll(async () => {
    const db = app.db;
    eventId = (await seedEvent(db, { name: eventName })).id;
    // Points: Alfa 15, Beta 12, Delta 7, Gama 6, Épsilon 3, Zeta 2.
    const lists = [
      [A, B, C, D, E],
      [A, B, C, D, F],
      [A, B, D, E, F],
    ];
    for (const [i, list] of lists.entries()) {
      const exhibitor = await seedExhibitor(db, { fullName: `Expositor ${i + 1}` });
      await seedMembership(db, eventId, exhibitor.id);
      await seedNominations(db, {
        eventId,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: list.map((fiscalId) => ({ fiscalId, name: names[fiscalId] })),
      });
    }
  });

  it('draws the top by points above the table, with the same in words', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/consumption`);
    const figure = page.getByRole('figure', { name: 'Los 6 primeros por puntos' });
    await figure.waitFor();
    await figure.locator('svg').first().waitFor();
    expect(await figure.getAttribute('aria-describedby')).toBeTruthy();
    const description = page.locator(`[id="${await figure.getAttribute('aria-describedby')}"]`);
    expect(await description.textContent()).toBe(
      '1° Alfa Redes: 15 puntos. 2° Beta Sistemas: 12 puntos. 3° Delta Cloud: 7 puntos. ' +
        '4° Gama Datos: 6 puntos. 5° Épsilon Soft: 3 puntos. 6° Zeta Norte: 2 puntos',
    );
    // Above the table.
    const figureBox = await figure.boundingBox();
    const tableBox = await page.getByRole('table').first().boundingBox();
    expect(figureBox && tableBox && figureBox.y + figureBox.height <= tableBox.y).toBe(true);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/chart-desktop.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    // The chart measures its box again after the resize: wait for that, not for a fixed time.
    await expect.poll(() => hasHorizontalScroll(page)).toBe(false);
    await page.screenshot({ path: `${SHOTS}/chart-phone.png`, fullPage: true });
    await context.close();
  });

  it('keeps the charts library in a chunk of its own, out of the sign-in and exhibitor screens', () => {
    type Chunk = { file: string; imports?: string[]; dynamicImports?: string[] };
    const manifest = JSON.parse(
      fs.readFileSync(path.join(webDir, '.vite/manifest.json'), 'utf8'),
    ) as Record<string, Chunk>;
    const closure = (key: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(key)) return seen;
      seen.add(key);
      for (const dependency of manifest[key]?.imports ?? []) closure(dependency, seen);
      return seen;
    };
    const keyOf = (suffix: string) => {
      const key = Object.keys(manifest).find((k) => k.endsWith(suffix));
      if (!key) throw new Error(`${suffix} is not a chunk of the build`);
      return key;
    };
    const chartKey = keyOf('features/results/RankingChart.tsx');
    const chartFile = manifest[chartKey]?.file ?? '';
    expect(fs.readFileSync(path.join(webDir, chartFile), 'utf8')).toContain('MuiBarChart');
    for (const screen of [
      'index.html',
      'routes/signin/SignInEmail.tsx',
      'routes/signin/SignInCode.tsx',
      'routes/exh/MyEvents.tsx',
      'routes/exh/NominationScreen.tsx',
      'routes/admin/CategoryRanking.tsx',
    ]) {
      const files = [...closure(keyOf(screen))].map((key) => manifest[key]?.file ?? '');
      expect(files).not.toContain(chartFile);
      // No other chunk of these screens carries the library either.
      for (const file of files.filter((f) => f.endsWith('.js'))) {
        expect(fs.readFileSync(path.join(webDir, file), 'utf8')).not.toContain('MuiBarChart');
      }
    }
    // Loaded on demand by the category tab only.
    expect(manifest[keyOf('routes/admin/CategoryRanking.tsx')]?.dynamicImports).toContain(chartKey);
  });

  const place = (list: Locator, n: number) => list.getByRole('listitem').nth(n - 1);

  it('"Presentar" reveals the first five from 5° to 1°, by arrow key, click and "Siguiente"; Escape returns', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/consumption`);
    await page.getByRole('button', { name: 'Presentar' }).click();
    await page.waitForURL(`**/admin/event/${eventId}/present/consumption`);
    await page.getByRole('heading', { level: 1, name: 'Nominación Reseller CONSUMO' }).waitFor();
    expect(await page.getByText(eventName).isVisible()).toBe(true);
    expect(await page.getByRole('img', { name: 'Logo' }).isVisible()).toBe(true);
    // Outside the app's layout: no top bar.
    expect(await page.getByRole('banner').count()).toBe(0);
    const podium = page.getByRole('list', { name: 'Primeros puestos' });
    expect(await podium.getByRole('listitem').allInnerTexts()).toEqual(
      ['1°', '2°', '3°', '4°', '5°'].map((p) => `${p}\n…\nSin revelar`),
    );
    for (const name of Object.values(names)) expect(await page.getByText(name).count()).toBe(0);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/present-start-desktop.png` });

    const expectRevealed = async (count: number) => {
      const order = [E, C, D, B, A].slice(0, count);
      for (const [i, fiscalId] of [A, B, D, C, E].entries()) {
        const text = place(podium, i + 1);
        const shown = order.includes(fiscalId);
        await expect
          .poll(() => text.innerText())
          .toContain(shown ? names[fiscalId] : 'Sin revelar');
      }
    };
    await page.keyboard.press('ArrowRight');
    await expectRevealed(1);
    expect(await place(podium, 5).innerText()).toBe('5°\nÉpsilon Soft\n3 puntos');
    await page.getByRole('heading', { level: 1 }).click();
    await expectRevealed(2);
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await expectRevealed(3);
    await page.keyboard.press('ArrowRight');
    await expectRevealed(4);
    await page.keyboard.press('ArrowRight');
    await expectRevealed(5);
    expect(await place(podium, 1).innerText()).toBe('1°\nAlfa Redes\n15 puntos');
    expect(await page.getByText('Zeta Norte').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Siguiente' }).isDisabled()).toBe(true);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/present-done-desktop.png` });
    await page.setViewportSize(PHONE);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await page.screenshot({ path: `${SHOTS}/present-done-phone.png`, fullPage: true });

    await page.keyboard.press('Escape');
    await page.waitForURL(`**/admin/event/${eventId}/consumption`);
    await page.getByRole('button', { name: 'Presentar' }).waitFor();
    await context.close();
  });
});

describe('the ceremony from a clicker', () => {
  // 12:00 in Buenos Aires on 1 June 2026: the first event still takes votes, the second does not.
  const NOW = '2026-06-01T15:00:00.000Z';
  const app = useBrowserApp({ now: NOW });
  let openEventId: string;
  let closedEventId: string;
  const consumption = ['Alfa Redes', 'Beta Sistemas', 'Gama Datos', 'Delta Cloud', 'Épsilon Soft'];
  const value = ['Omega Servicios', 'Sigma Nube'];

  beforeAll(async () => {
    const db = app.db;
    openEventId = (await seedEvent(db, { name: 'Gala Abierta 2026', voteDeadline: '2026-07-01' }))
      .id;
    closedEventId = (
      await seedEvent(db, {
        name: 'Gala Cerrada 2026',
        eventDate: '2026-05-30',
        voteDeadline: '2026-05-20',
      })
    ).id;
    const nominees = (names: string[], first: number) =>
      names.map((name, i) => ({ fiscalId: String(first + i), name }));
    for (const eventId of [openEventId, closedEventId]) {
      const exhibitor = await seedExhibitor(db, { fullName: 'Expositor Único' });
      await seedMembership(db, eventId, exhibitor.id);
      await seedNominations(db, {
        eventId,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: nominees(consumption, 3001),
      });
      await seedNominations(db, {
        eventId,
        exhibitorId: exhibitor.id,
        category: 'value',
        nominees: nominees(value, 4001),
      });
    }
  });

  /** How many places show a name, and that they are the last ones (revealed from 5° up). */
  async function expectRevealed(page: Page, count: number, names: string[]) {
    const podium = page.getByRole('list', { name: 'Primeros puestos' });
    await expect
      .poll(() => podium.getByRole('listitem').allInnerTexts())
      .toEqual(
        names.map((name, i) =>
          i >= names.length - count
            ? `${i + 1}°\n${name}\n${5 - i} ${i === 4 ? 'punto' : 'puntos'}`
            : `${i + 1}°\n…\nSin revelar`,
        ),
      );
  }

  it('advances with PageDown, Space and Enter, goes back with PageUp and "Anterior", warns while voting is open and offers the next category after 1°', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${openEventId}/consumption`);
    await page.getByRole('button', { name: 'Presentar' }).click();
    await page.waitForURL(`**/admin/event/${openEventId}/present/consumption`);
    await page.getByRole('heading', { level: 1, name: 'Nominación Reseller CONSUMO' }).waitFor();
    const warning = page.getByRole('note');
    expect(await warning.innerText()).toBe(
      'La votación sigue abierta: los resultados pueden cambiar.',
    );
    const previous = page.getByRole('button', { name: 'Anterior', exact: true });
    const next = page.getByRole('button', { name: 'Siguiente', exact: true });
    expect(await previous.isDisabled()).toBe(true);
    expect(await next.isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Pantalla completa' }).isVisible()).toBe(true);
    await expectRevealed(page, 0, consumption);

    await page.keyboard.press('PageDown');
    await expectRevealed(page, 1, consumption);
    await page.keyboard.press('Space');
    await expectRevealed(page, 2, consumption);
    await page.keyboard.press('PageUp');
    await expectRevealed(page, 1, consumption);
    await page.keyboard.press('Enter');
    await expectRevealed(page, 2, consumption);
    await previous.click();
    await expectRevealed(page, 1, consumption);
    // The clicker goes on pressing while the focus rests on "Anterior".
    for (let count = 2; count <= 5; count += 1) {
      await page.keyboard.press('PageDown');
      await expectRevealed(page, count, consumption);
    }
    expect(await next.isDisabled()).toBe(true);
    const goOn = page.getByRole('button', { name: 'Continuar con VALOR AGREGADO' });
    await goOn.waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/clicker-done-desktop.png` });
    await page.setViewportSize(PHONE);
    expect(await hasHorizontalScroll(page)).toBe(false);
    expect(await goOn.isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/clicker-done-phone.png`, fullPage: true });
    await page.setViewportSize(DESKTOP);

    // One more press of the clicker opens the next category, from nothing revealed.
    await page.keyboard.press('PageDown');
    await page.waitForURL(`**/admin/event/${openEventId}/present/value`);
    await page
      .getByRole('heading', { level: 1, name: 'Nominación Reseller VALOR AGREGADO' })
      .waitFor();
    await expectRevealed(page, 0, value);
    await page.keyboard.press('PageDown');
    await page.keyboard.press('PageDown');
    await expectRevealed(page, 2, value);
    // The last category offers no other.
    expect(await page.getByRole('button', { name: /^Continuar con/ }).count()).toBe(0);
    await page.keyboard.press('PageDown');
    await page
      .getByRole('heading', { level: 1, name: 'Nominación Reseller VALOR AGREGADO' })
      .waitFor();
    await expectRevealed(page, 2, value);
    await context.close();
  });

  it('"Pantalla completa" puts the presentation in full screen and takes it out again', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${openEventId}/present/consumption`);
    const button = page.getByRole('button', { name: 'Pantalla completa' });
    await button.waitFor();
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    await button.click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
    // The button is no press of the clicker: nothing was revealed.
    await expectRevealed(page, 0, consumption);
    await button.click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement === null)).toBe(true);
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('false');
    await context.close();
  });

  it('shows no warning once voting has closed', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(`/admin/event/${closedEventId}/present/consumption`);
    await page.getByRole('heading', { level: 1, name: 'Nominación Reseller CONSUMO' }).waitFor();
    await page.getByRole('list', { name: 'Primeros puestos' }).waitFor();
    expect(await page.getByRole('note').count()).toBe(0);
    expect(await page.getByText('La votación sigue abierta', { exact: false }).count()).toBe(0);
    await expectAccessible(page);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await page.screenshot({ path: `${SHOTS}/clicker-closed-phone.png`, fullPage: true });
    await context.close();
  });
});
