import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
import {
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  screenshotsIn,
} from '../test/helpers/browser.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import { dateIn, settled, useBrowserApp, visible } from '../test/helpers/browser-fixture.ts';

const SHOTS = '/tmp/shots-lifecycle';
const shot = screenshotsIn(SHOTS);
const SOURCE = 'Premios Canal 2025';
const COPY = 'Premios Canal 2026';

const typed = (iso: string) => iso.split('-').reverse().join('/');

describe('the life of an event: duplicate, archive, anonymise', () => {
  const app = useBrowserApp();
  let sourceId: string;
  const members = [
    { email: 'lucia.lopez@norte.test', fullName: 'Lucía López', company: 'Norte SA' },
    { email: 'martin.mora@sur.test', fullName: 'Martín Mora', company: 'Sur SRL' },
  ];

  beforeAll(async () => {
    // Last year's event: its date has passed.
    sourceId = (
      await seedEvent(app.db, {
        name: SOURCE,
        eventDate: dateIn(-5),
        voteDeadline: dateIn(-10),
      })
    ).id;
    for (const values of members) {
      const exhibitor = await seedExhibitor(app.db, values);
      await seedMembership(app.db, sourceId, exhibitor.id);
      await seedNominations(app.db, {
        eventId: sourceId,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: [{ fiscalId: '30111111111', name: 'Reseller Uno' }],
      });
    }
  });

  /** From an archived event's page: its category tab and a reseller's votes offer no change. */
  async function expectVotesReadOnly(page: Page): Promise<void> {
    await page.getByRole('tab', { name: 'Nominación Reseller CONSUMO' }).click();
    await page.getByRole('table', { name: 'Votos' }).waitFor();
    expect(await page.getByRole('button', { name: 'Posibles duplicados' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Reseller Uno' }).click();
    await page.getByRole('cell', { name: 'Reseller Uno' }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Reseller Uno' }).count()).toBe(0);
  }

  const membersOf = async (eventId: string) =>
    (
      await app.db
        .selectFrom('event_exhibitors')
        .innerJoin('exhibitors', 'exhibitors.id', 'event_exhibitors.exhibitor_id')
        .select('exhibitors.email')
        .where('event_exhibitors.event_id', '=', eventId)
        .orderBy('exhibitors.email')
        .execute()
    ).map((row) => row.email);

  it('duplicates the event with its exhibitors and opens the new one', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${sourceId}/exhibitors`);
    await page.getByRole('heading', { name: SOURCE }).waitFor();
    await page.getByRole('button', { name: 'Duplicar evento' }).click();
    const dialog = page.getByRole('dialog', { name: 'Duplicar evento' });
    await settled(dialog);
    expect(await dialog.getByRole('textbox', { name: 'Nombre', exact: true }).inputValue()).toBe(
      SOURCE,
    );
    expect(await dialog.getByRole('checkbox', { name: 'Copiar expositores' }).isChecked()).toBe(
      true,
    );
    expect(await dialog.getByRole('checkbox', { name: 'Enviar invitaciones' }).isChecked()).toBe(
      false,
    );
    expect(
      await dialog.getByRole('checkbox', { name: 'Recordar el día del cierre' }).isChecked(),
    ).toBe(true);
    await expectAccessible(page);

    // The rules of a new event.
    await dialog.getByRole('textbox', { name: 'Nombre', exact: true }).fill(COPY);
    await dialog.getByLabel('Fecha del evento').fill(typed(dateIn(30)));
    await dialog.getByLabel('Fecha límite').fill(typed(dateIn(30)));
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await visible(dialog, MSG.deadlineAfterEvent);

    await dialog.getByLabel('Fecha límite').fill(typed(dateIn(20)));
    await dialog.getByRole('checkbox', { name: 'Enviar invitaciones' }).check();
    await shot(page, 'duplicate-dialog-desktop');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await visible(page, MSG.eventDuplicated);
    await page.getByRole('heading', { name: COPY }).waitFor();
    await page.getByRole('link', { name: 'Lucía López' }).waitFor();
    await page.getByRole('link', { name: 'Martín Mora' }).waitFor();
    const copyId = new URL(page.url()).pathname.split('/')[3] ?? '';
    expect(copyId).not.toBe(sourceId);
    expect(await membersOf(copyId)).toEqual(members.map((m) => m.email).sort());
    const votes = await app.db
      .selectFrom('nominations')
      .select('fiscal_id')
      .where('event_id', '=', copyId)
      .execute();
    expect(votes).toEqual([]);
    const invitations = await app.db
      .selectFrom('mail_outbox')
      .select('to_address')
      .where('event_id', '=', copyId)
      .where('template', '=', 'exhibitor-invitation')
      .orderBy('to_address')
      .execute();
    expect(invitations.map((m) => m.to_address)).toEqual(members.map((m) => m.email).sort());
    // A future event cannot be archived yet: the button shows, disabled (its reason is
    // e2e/small-defects.e2e.ts's).
    expect(await page.getByRole('button', { name: 'Archivar evento' }).isDisabled()).toBe(true);
    await context.close();
  });

  it('archives the past event: read-only, listed only with "Archivados"; Desarchivar reverses it', async () => {
    const { context, page } = await app.adminPage();
    const setArchivedAt = (archivedAt: string | null) =>
      app.db
        .updateTable('events')
        .set({ archived_at: archivedAt })
        .where('id', '=', sourceId)
        .execute();

    // Another administrator archives the event while this one is correcting a vote: the server
    // refuses the correction and says why.
    await page.goto(`/admin/event/${sourceId}/exhibitors`);
    await page.getByRole('link', { name: 'Lucía López' }).click();
    await page.getByRole('button', { name: 'Reseller Uno' }).click();
    const correction = page.getByRole('dialog', { name: 'Editar nominación' });
    await settled(correction);
    await setArchivedAt(new Date().toISOString());
    await correction.getByLabel('Motivo').selectOption({ label: 'ID fiscal equivocado' });
    await correction.getByRole('button', { name: 'Guardar' }).click();
    await visible(correction, MSG.eventArchived);
    await expectAccessible(page);
    await correction.getByRole('button', { name: 'Cancelar' }).click();
    await setArchivedAt(null);

    await page.goto(`/admin/event/${sourceId}/exhibitors`);
    await page.getByRole('heading', { name: SOURCE }).waitFor();
    await page.getByRole('button', { name: 'Archivar evento' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Archivar evento?' });
    await settled(dialog);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(
      (
        await app.db
          .selectFrom('events')
          .select('archived_at')
          .where('id', '=', sourceId)
          .executeTakeFirstOrThrow()
      ).archived_at,
    ).toBeNull();

    await page.getByRole('button', { name: 'Archivar evento' }).click();
    await settled(dialog);
    await dialog.getByRole('button', { name: 'Archivar' }).click();
    await visible(page, MSG.eventArchivedNotice);
    await visible(page, MSG.eventArchivedReadOnly);
    await page.getByRole('button', { name: 'Desarchivar' }).waitFor();
    await page.getByRole('button', { name: 'Anonimizar datos personales' }).waitFor();
    expect(await page.getByRole('button', { name: 'Editar evento' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Eliminar evento' }).count()).toBe(0);
    await expectAccessible(page);
    await shot(page, 'archived-event-desktop');

    // Nothing on the tabs offers a change any more.
    for (const name of ['Expositor', 'Importar', 'Editar expositor', 'Reenviar invitación']) {
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }
    await page.getByRole('tab', { name: 'Participación' }).click();
    await page.getByRole('table', { name: 'Participación' }).waitFor();
    expect(await page.getByRole('button', { name: 'Recordar a quienes no votaron' }).count()).toBe(
      0,
    );

    // The votes are shown with no way to correct or merge them.
    await expectVotesReadOnly(page);
    await page.getByRole('button', { name: 'Atras' }).click();
    await page.getByRole('tab', { name: 'Expositores' }).click();
    await page.getByRole('link', { name: 'Lucía López' }).click();
    await page.getByRole('cell', { name: 'Reseller Uno' }).waitFor();
    expect(await page.getByRole('button', { name: 'Reseller Uno' }).count()).toBe(0);
    await expectAccessible(page);
    await shot(page, 'archived-votes-desktop');
    await page.getByRole('button', { name: 'Atras' }).click();
    await page.getByRole('heading', { name: SOURCE }).waitFor();

    await page.getByRole('button', { name: 'Atras' }).click();
    await page.getByRole('heading', { name: 'Eventos' }).waitFor();
    await page.getByRole('link', { name: COPY }).waitFor();
    expect(await page.getByRole('link', { name: SOURCE }).count()).toBe(0);
    await page.getByRole('switch', { name: 'Archivados' }).check();
    await page.getByRole('link', { name: SOURCE }).waitFor();
    expect(await page.getByRole('link', { name: COPY }).count()).toBe(0);
    await expectAccessible(page);
    await shot(page, 'archived-list-desktop');

    await page.getByRole('link', { name: SOURCE }).click();
    await page.getByRole('button', { name: 'Desarchivar' }).click();
    await visible(page, MSG.eventUnarchivedNotice);
    await page.getByRole('button', { name: 'Archivar evento' }).waitFor();
    await page.getByRole('button', { name: 'Editar evento' }).waitFor();
    await context.close();
  });

  it('anonymises the archived event after the warning, at phone width too', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(`/admin/event/${sourceId}/exhibitors`);
    await page.getByRole('button', { name: 'Archivar evento' }).click();
    await page
      .getByRole('dialog', { name: '¿Archivar evento?' })
      .getByRole('button', { name: 'Archivar' })
      .click();
    await page.getByRole('button', { name: 'Anonimizar datos personales' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Anonimizar datos personales?' });
    await settled(dialog);
    await visible(dialog, 'Esta acción no puede revertirse');
    await expectAccessible(page);
    await shot(page, 'anonymise-dialog-phone');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await dialog.getByRole('button', { name: 'Anonimizar' }).click();
    await visible(page, MSG.eventAnonymisedNotice);
    await visible(page, MSG.eventArchivedAnonymised);
    expect(await page.getByRole('button', { name: 'Anonimizar datos personales' }).count()).toBe(0);
    // The people are gone from the event; the copy made earlier keeps its own exhibitors.
    await expect.poll(() => page.getByText('Lucía López').count(), { timeout: 10_000 }).toBe(0);
    // Lucía is also in the copy: her placeholder here has no company that would name her.
    expect(await page.getByText('Norte SA').count()).toBe(0);
    await expectAccessible(page);
    await shot(page, 'anonymised-event-phone');
    expect(await hasHorizontalScroll(page)).toBe(false);
    // The reseller's votes, kept by the anonymisation, are shown without a way to correct them.
    await expectVotesReadOnly(page);
    await expectAccessible(page);
    await shot(page, 'archived-votes-phone');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await context.close();

    const desktop = await app.adminPage();
    await desktop.page.goto(`/admin/event/${sourceId}/exhibitors`);
    await visible(desktop.page, MSG.eventArchivedAnonymised);
    await shot(desktop.page, 'anonymised-event-desktop');
    await desktop.context.close();
  });
});
