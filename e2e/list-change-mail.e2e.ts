/**
 * Issue 28 item 1: after an administrator corrects an exhibitor's vote, the exhibitor gets
 * "Se modificaron tus nominaciones en {evento}" and sees, above the lists, "Modificado por la
 * organización el {d-m-yyyy HH:mm}: {motivo}" (at 390 px, axe-clean).
 */
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDisplayInstant, formatMailInstant } from '../src/shared/dates.ts';
import { expectAccessible, hasHorizontalScroll, PHONE } from '../test/helpers/browser.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';

const SHOTS = '/tmp/shots-list-change-mail';
const ZONE = 'America/Argentina/Buenos_Aires';

describe('the exhibitor is told of an administrator’s correction', { timeout: 180_000 }, () => {
  const app = useBrowserApp();

  beforeAll(() => {
    fs.mkdirSync(SHOTS, { recursive: true });
  });

  it('mails the change and shows the banner above the lists at 390 px', async () => {
    const db = app.db;
    const event = await seedEvent(db, { name: 'Premios Transparentes 2026' });
    const exhibitor = await seedExhibitor(db, {
      email: 'elena.cambios@empresa.test',
      fullName: 'Elena Cambios',
    });
    await seedMembership(db, event.id, exhibitor.id);
    await seedNominations(db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [
        { fiscalId: '20111111112', name: 'Alfa Redes' },
        { fiscalId: '20222222223', name: 'Beta Sistemas' },
      ],
    });

    // The administrator corrects the second entry, with a reason.
    const { context: adminContext, page: adminPage } = await app.adminPage();
    await adminPage.goto(`/admin/event/${event.id}/exhibitors/${exhibitor.id}`);
    await adminPage.getByRole('button', { name: 'Beta Sistemas', exact: true }).click();
    const edit = adminPage.getByRole('dialog', { name: 'Editar nominación' });
    await edit.getByLabel('Nombre del reseller').fill('Beta Sistemas SRL');
    await edit.getByLabel('Motivo').selectOption({ label: 'Pedido del expositor' });
    await edit.getByLabel('Detalle').fill('Nombre completo');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await edit.waitFor({ state: 'hidden' });
    await adminContext.close();

    const change = await db
      .selectFrom('list_changes')
      .select(['changed_at', 'reason'])
      .where('event_id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(change.reason).toBe('Pedido del expositor (Nombre completo)');

    // The exhibitor, on a phone, sees the change above the lists.
    const { context, page } = await app.exhibitorPage(exhibitor, PHONE);
    await page.goto(`/exh/event/${event.id}`);
    const banner = page.getByText(
      `Modificado por la organización el ${formatDisplayInstant(change.changed_at, ZONE)}: Pedido del expositor (Nombre completo)`,
      { exact: true },
    );
    await banner.waitFor();
    await page.getByRole('tab', { name: /CONSUMO/ }).waitFor();
    // Above the list: the banner comes before the category tabs.
    const [bannerBox, tabsBox] = [
      await banner.boundingBox(),
      await page.getByRole('tablist', { name: 'Categorías' }).boundingBox(),
    ];
    expect(bannerBox && tabsBox && bannerBox.y < tabsBox.y).toBe(true);
    await page.getByText('Beta Sistemas SRL').first().waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/banner-phone.png`, fullPage: true });
    await context.close();

    // The message waits for ten quiet minutes; the test moves it to now instead of waiting.
    const queued = await db
      .selectFrom('mail_outbox')
      .select(['id', 'next_attempt_at', 'status'])
      .where('template', '=', 'list-change')
      .where('event_id', '=', event.id)
      .execute();
    expect(queued).toHaveLength(1);
    expect(Date.parse(queued[0]?.next_attempt_at ?? '') - Date.parse(change.changed_at)).toBe(
      10 * 60_000,
    );
    await db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: new Date().toISOString() })
      .where('id', '=', queued[0]?.id ?? '')
      .execute();
    const mail = await app.smtp.waitFor(exhibitor.email, { timeoutMs: 30_000 });
    expect(mail.subject).toBe('Se modificaron tus nominaciones en Premios Transparentes 2026');
    expect(mail.text).toContain(
      [
        'CONSUMO:',
        'Antes:',
        '1. Alfa Redes (ID fiscal 20111111112)',
        '2. Beta Sistemas (ID fiscal 20222222223)',
        'Después:',
        '1. Alfa Redes (ID fiscal 20111111112)',
        '2. Beta Sistemas SRL (ID fiscal 20222222223)',
        `Modificado por Ana Administradora el ${formatMailInstant(change.changed_at, ZONE)} (hora de Buenos Aires). Motivo: Pedido del expositor (Nombre completo)`,
      ].join('\n\n'),
    );
  });
});
