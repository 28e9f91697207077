import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
import { NOMINEE_FIELD_LABELS, type NomineeInput } from '../src/shared/schemas/nominee.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import { DESKTOP, expectAccessible, hasHorizontalScroll, PHONE } from '../test/helpers/browser.ts';
import { CODE_HEADING, codeMail } from '../test/helpers/code-sign-in.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

const SHOTS = '/tmp/shots-exh-guided';
fs.mkdirSync(SHOTS, { recursive: true });

const CONSUMO = 'Nominación Reseller de CONSUMO';
const VALOR = 'Nominación Reseller de VALOR AGREGADO';

const fiveNominees = (prefix: string) =>
  [1, 2, 3, 4, 5].map((n) => ({ fiscalId: `${prefix}${n}`, name: `Reseller ${prefix}${n}` }));

/** Issue 32 item 6: the exhibitor's screen says how far each list is and when all is done. */
describe('the exhibitor is guided to done', () => {
  const NOW = '2026-06-01T15:00:00.000Z';
  const app = useBrowserApp({ admin: false, now: NOW });

  it('tabs say "k/5", the points rule shows in one line, each row shows its fiscal id', async () => {
    const db = app.db;
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
      const { context, page } = await app.exhibitorPage(exhibitor, viewport);
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

  it('takes a pasted fiscal id and phone (number pad, phone keypad) and lists the digits', async () => {
    const db = app.db;
    const event = await seedEvent(db, {
      name: 'Premios Pegados',
      eventDate: '2026-07-15',
      voteDeadline: '2026-07-01',
    });
    const exhibitor = await seedExhibitor(db, { fullName: 'Paula Pega' });
    await seedMembership(db, event.id, exhibitor.id);
    const { context, page } = await app.exhibitorPage(exhibitor, PHONE);
    await page.goto(`/exh/event/${event.id}`);
    await page.getByRole('button', { name: 'Nominar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nominar a un reseller' });
    const values: NomineeInput = {
      name: 'Rosario Sistemas',
      registeredName: 'Rosario Sistemas S.R.L.',
      fiscalId: '30-70998877-4',
      contactName: 'Carla Contacto',
      contactPosition: 'Gerente Comercial',
      phone: '+54 341 456-7890',
      email: 'ventas@rosario.test',
      location: 'Rosario',
      city: 'Santa Fe',
    };
    for (const [field, label] of Object.entries(NOMINEE_FIELD_LABELS)) {
      await dialog
        .getByRole('textbox', { name: label, exact: true })
        .fill(values[field as keyof NomineeInput] ?? '');
    }
    const fiscal = dialog.getByRole('textbox', { name: 'ID fiscal', exact: true });
    const phone = dialog.getByRole('textbox', { name: 'Teléfono', exact: true });
    expect(await fiscal.getAttribute('inputmode')).toBe('numeric');
    expect(await phone.getAttribute('type')).toBe('tel');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('tabpanel').getByRole('row').filter({ hasText: 'Rosario Sistemas' });
    await row.getByText('ID fiscal 30709988774', { exact: false }).waitFor();
    await page.getByRole('tab', { name: `${CONSUMO} 1/5`, exact: true }).waitFor();
    const stored = await db
      .selectFrom('nominations')
      .select(['fiscal_id', 'phone'])
      .where('event_id', '=', event.id)
      .execute();
    expect(stored).toEqual([{ fiscal_id: '30709988774', phone: '543414567890' }]);
    await context.close();
  });

  it('says "¡Listo!" and that a receipt is coming once every list is full', async () => {
    const db = app.db;
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
    const { context, page } = await app.exhibitorPage(exhibitor, PHONE);
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
  const app = useBrowserApp({ admin: false, now: NOW });

  it('shows only that voting has ended and the lists: no deadline, no rule, no "¡Listo!"', async () => {
    const db = app.db;
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
    const { context, page } = await app.exhibitorPage(exhibitor, PHONE);
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

describe('signing in leads to the event', () => {
  const NOW = '2026-06-01T15:00:00.000Z';
  const app = useBrowserApp({ admin: false, now: NOW });

  /** Email step (wherever the page is), then the `count`-th code mail's code. */
  async function signInWithCode(page: Page, email: string, count: number) {
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'siguiente' }).click();
    await page.getByRole('heading', { name: CODE_HEADING }).waitFor();
    const { code } = await codeMail(app.server, email, count);
    for (let n = 1; n <= 6; n += 1) await page.getByLabel(`Dígito ${n}`).fill(code[n - 1]!);
    await page.getByRole('button', { name: 'acceder' }).click();
  }

  it('with exactly one event, sign-in opens it; /exh itself still lists it', async () => {
    const db = app.db;
    const event = await seedEvent(db, { name: 'Único Evento', voteDeadline: '2026-07-01' });
    const exhibitor = await seedExhibitor(db, { email: 'una@empresa.test' });
    await seedMembership(db, event.id, exhibitor.id);
    const context = await app.context(PHONE);
    const page = await context.newPage();
    await page.goto('/signin');
    await signInWithCode(page, exhibitor.email, 1);
    await page.waitForURL(`**/exh/event/${event.id}`);
    await page.getByRole('heading', { level: 1, name: 'Único Evento' }).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/signin-one-event-phone.png`, fullPage: true });
    await page.goto('/exh');
    await page.getByRole('heading', { level: 1, name: 'Mis eventos' }).waitFor();
    await page.getByRole('link', { name: 'Único Evento' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/exh');
    await context.close();
  });

  it('a mail link opened signed out returns to its event, by code or by the emailed link', async () => {
    const db = app.db;
    const first = await seedEvent(db, { name: 'Primer Evento', voteDeadline: '2026-07-01' });
    const second = await seedEvent(db, { name: 'Segundo Evento', voteDeadline: '2026-07-01' });
    // One exhibitor per way in: the server's clock stands still, and a second code asked for
    // by the same client within 30 s is not sent (the first one will do).
    const [byCode, byLink, forgedNext] = await Promise.all(
      ['por-codigo', 'por-enlace', 'falso'].map((name) =>
        seedExhibitor(db, { email: `${name}@empresa.test` }),
      ),
    );
    for (const exhibitor of [byCode!, byLink!, forgedNext!]) {
      await seedMembership(db, first.id, exhibitor.id);
      await seedMembership(db, second.id, exhibitor.id);
    }
    const target = `/exh/event/${second.id}`;

    // By code, in the same tab.
    const context = await app.context(PHONE);
    const page = await context.newPage();
    await page.goto(target);
    await page.waitForURL((url) => url.pathname === '/signin');
    expect(new URL(page.url()).searchParams.get('next')).toBe(target);
    await expectAccessible(page);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await signInWithCode(page, byCode!.email, 1);
    await page.waitForURL(`**${target}`);
    await page.getByRole('heading', { level: 1, name: 'Segundo Evento' }).waitFor();
    await context.close();

    // By the code mail's one-time link, opened in another tab of the same browser.
    const linkContext = await app.context(DESKTOP);
    const start = await linkContext.newPage();
    await start.goto(target);
    await start.waitForURL((url) => url.pathname === '/signin');
    await start.getByLabel('Email').fill(byLink!.email);
    await start.getByRole('button', { name: 'siguiente' }).click();
    await start.getByRole('heading', { name: CODE_HEADING }).waitFor();
    const { link } = await codeMail(app.server, byLink!.email, 1);
    const mailTab = await linkContext.newPage();
    await mailTab.goto(link);
    await mailTab.getByRole('button', { name: 'acceder' }).click();
    await mailTab.waitForURL(`**${target}`);
    await mailTab.getByRole('heading', { level: 1, name: 'Segundo Evento' }).waitFor();
    await linkContext.close();

    // Never to another origin: a forged `next` lands on the exhibitor's events.
    const forged = await app.context(DESKTOP);
    const forgedPage = await forged.newPage();
    await forgedPage.goto(`/signin?next=${encodeURIComponent('//evil.test/exh/event/1')}`);
    await signInWithCode(forgedPage, forgedNext!.email, 1);
    await forgedPage.waitForURL((url) => url.pathname === '/exh');
    expect(new URL(forgedPage.url()).origin).toBe(app.server.url);
    // Two events: the list, not one of them.
    await forgedPage.getByRole('heading', { level: 1, name: 'Mis eventos' }).waitFor();
    await forgedPage.getByRole('link', { name: 'Primer Evento' }).waitFor();
    await forged.close();
  });
});
