import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
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

const SHOTS = '/tmp/shots-exh-guided';
fs.mkdirSync(SHOTS, { recursive: true });

const CONSUMO = 'Nominación Reseller de CONSUMO';
const VALOR = 'Nominación Reseller de VALOR AGREGADO';

const fiveNominees = (prefix: string) =>
  [1, 2, 3, 4, 5].map((n) => ({ fiscalId: `${prefix}${n}`, name: `Reseller ${prefix}${n}` }));

async function signedInPage(
  browser: Browser,
  server: RunningServer,
  exhibitor: { id: string; email: string; fullName: string },
  now: string,
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, server.url, viewport);
  await signInContext(
    context,
    server,
    { role: 'exh', exhibitorId: exhibitor.id },
    { email: exhibitor.email, fullName: exhibitor.fullName },
    new Date(now),
  );
  return { context, page: await context.newPage() };
}

/** Issue 32 item 6: the exhibitor's screen says how far each list is and when all is done. */
describe('the exhibitor is guided to done', () => {
  const NOW = '2026-06-01T15:00:00.000Z';
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ now: NOW });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('tabs say "k/5", the points rule shows in one line, each row shows its fiscal id', async () => {
    const db = server.database.db;
    const event = await seedEvent(db, {
      name: 'Premios Guía',
      eventDate: '2026-07-15',
      voteDeadline: '2026-07-01',
    });
    const exhibitor = await seedExhibitor(db, { fullName: 'Gabi Guiada' });
    await seedMembership(db, event.id, exhibitor.id);
    await seedNominations(db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [
        { fiscalId: '30709988774', name: 'Alfa' },
        { fiscalId: '30709988775', name: 'Beta' },
      ],
    });
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await signedInPage(browser, server, exhibitor, NOW, viewport);
      await page.goto(`/exh/event/${event.id}`);
      await page.getByRole('tab', { name: `${CONSUMO} 2/5`, exact: true }).waitFor();
      expect(await page.getByRole('tab', { name: `${VALOR} 0/5`, exact: true }).count()).toBe(1);
      await page
        .getByText('1° = 5 puntos, 2° = 4 puntos, 3° = 3 puntos, 4° = 2 puntos, 5° = 1 punto', {
          exact: true,
        })
        .waitFor();
      await page.getByText('Tienes hasta 1-7-2026 para realizar cambios').waitFor();
      expect(await page.getByText(MSG.exhListsComplete).count()).toBe(0);
      // The fiscal id: its own column on a desktop, under the name on a phone.
      const alfa = page.getByRole('tabpanel').getByRole('row').filter({ hasText: 'Alfa' });
      if (viewport === DESKTOP) {
        expect(
          await page.getByRole('columnheader', { name: 'ID fiscal', exact: true }).isVisible(),
        ).toBe(true);
        expect(await alfa.getByRole('cell', { name: '30709988774', exact: true }).isVisible()).toBe(
          true,
        );
      } else {
        expect(await alfa.getByText('ID fiscal 30709988774', { exact: false }).isVisible()).toBe(
          true,
        );
        expect(await hasHorizontalScroll(page)).toBe(false);
      }
      await expectAccessible(page);
      await page.screenshot({
        path: `${SHOTS}/in-progress-${viewport.width}.png`,
        fullPage: true,
      });
      await context.close();
    }
  });

  it('says "¡Listo!" and that a receipt is coming once every list is full', async () => {
    const db = server.database.db;
    const event = await seedEvent(db, {
      name: 'Premios Completos',
      eventDate: '2026-07-15',
      voteDeadline: '2026-07-01',
    });
    const exhibitor = await seedExhibitor(db, { fullName: 'Cris Completa' });
    await seedMembership(db, event.id, exhibitor.id);
    await seedNominations(db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: fiveNominees('301'),
    });
    await seedNominations(db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'value',
      nominees: fiveNominees('302'),
    });
    const { context, page } = await signedInPage(browser, server, exhibitor, NOW, PHONE);
    await page.goto(`/exh/event/${event.id}`);
    const done = page.getByRole('status').filter({ hasText: MSG.exhListsComplete });
    await done.waitFor();
    expect(await done.innerText()).toContain(MSG.exhReceiptComing);
    expect(await page.getByRole('tab', { name: `${CONSUMO} 5/5`, exact: true }).count()).toBe(1);
    expect(await page.getByRole('tab', { name: `${VALOR} 5/5`, exact: true }).count()).toBe(1);
    expect(await page.getByText(MSG.nominationLimit).isVisible()).toBe(true);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/done-phone.png`, fullPage: true });
    await context.close();
  });
});

describe('the exhibitor after the deadline', () => {
  // The day after the 2026-07-01 deadline in Buenos Aires.
  const NOW = '2026-07-02T03:00:05.000Z';
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ now: NOW });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows only that voting has ended and the lists: no deadline, no rule, no "¡Listo!"', async () => {
    const db = server.database.db;
    const event = await seedEvent(db, {
      name: 'Premios Terminados',
      eventDate: '2026-07-15',
      voteDeadline: '2026-07-01',
    });
    const exhibitor = await seedExhibitor(db, { fullName: 'Tere Tarde' });
    await seedMembership(db, event.id, exhibitor.id);
    for (const category of ['consumption', 'value'] as const) {
      await seedNominations(db, {
        eventId: event.id,
        exhibitorId: exhibitor.id,
        category,
        nominees: fiveNominees(category === 'value' ? '402' : '401'),
      });
    }
    const { context, page } = await signedInPage(browser, server, exhibitor, NOW, PHONE);
    await page.goto(`/exh/event/${event.id}`);
    await page.getByText(MSG.votingClosed).waitFor();
    await page.getByRole('tab', { name: `${CONSUMO} 5/5`, exact: true }).waitFor();
    for (const gone of ['Tienes hasta', 'La votación cierra', '1° = 5 puntos', 'Guardado']) {
      expect(await page.getByText(gone).count(), gone).toBe(0);
    }
    expect(await page.getByText(MSG.exhListsComplete).count()).toBe(0);
    expect(
      await page
        .getByRole('tabpanel')
        .getByRole('row')
        .filter({ hasText: 'Reseller 4011' })
        .count(),
    ).toBe(1);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/closed-phone.png`, fullPage: true });
    await context.close();
  });
});
