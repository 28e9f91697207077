/**
 * Issue 31 in the browser: the event list's "Estado", "Enviar invitaciones pendientes", "Cerrar
 * votación ahora" and "Avisar a los expositores", on a desktop and at 390 px, each with an
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
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import { dateIn, settled, useBrowserApp } from '../test/helpers/browser-fixture.ts';

const shot = screenshotsIn('/tmp/shots-calendar');

const typed = (iso: string) => iso.split('-').reverse().join('/');

describe('calendar and mail screens (issue 31)', () => {
  const app = useBrowserApp();
  let open: { id: string; name: string };
  let closed: { id: string; name: string };
  let uninvitedId: string;

  beforeAll(async () => {
    const db = app.db;
    open = await seedEvent(db, {
      name: 'Premios Abiertos',
      eventDate: dateIn(30),
      voteDeadline: dateIn(20),
    });
    closed = await seedEvent(db, {
      name: 'Premios Cerrados',
      eventDate: dateIn(5),
      voteDeadline: dateIn(-2),
    });
    const voter = await seedExhibitor(db, { fullName: 'Lucía López', email: 'lucia@norte.test' });
    const waiting = await seedExhibitor(db, { fullName: 'Martín Mora', email: 'martin@sur.test' });
    uninvitedId = waiting.id;
    await seedMembership(db, open.id, voter.id);
    await seedMembership(db, open.id, waiting.id);
    // Added without an invitation (unchecked at import).
    await db
      .updateTable('event_exhibitors')
      .set({ invited_at: null })
      .where('exhibitor_id', '=', waiting.id)
      .execute();
    await seedNominations(db, {
      eventId: open.id,
      exhibitorId: voter.id,
      category: 'consumption',
      nominees: [{ fiscalId: '30111111111' }],
    });
  });

  it('the event list says where each event stands, with the share that voted', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await app.adminPage(viewport);
      await page.goto('/admin');
      await page.getByRole('link', { name: open.name }).waitFor();
      await page.getByRole('columnheader', { name: 'Estado' }).waitFor();
      const rows = await tableRows(page, 'Eventos', { exact: true });
      const rowOf = (name: string) => rows.find((row) => row[0] === name)?.at(-1);
      expect(rowOf(open.name)).toMatch(/^Abierta\s+50 % votó$/);
      expect(rowOf(closed.name)).toBe('Cerrada');
      if (viewport === PHONE) expect(await hasHorizontalScroll(page)).toBe(false);
      await expectAccessible(page);
      await shot(page, `events-${viewport.width}`);
      await context.close();
    }
  }, 120_000);

  it('"Enviar invitaciones pendientes" invites the exhibitors added without one, at 390 px', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(`/admin/event/${open.id}/exhibitors`);
    await page.getByRole('link', { name: 'Martín Mora' }).waitFor();
    await page.getByRole('button', { name: 'Enviar invitaciones pendientes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar invitaciones' });
    await settled(dialog);
    await dialog.getByText('Se enviará la invitación a 1 expositores.').waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'pending-invitations-390');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Enviar invitaciones pendientes' }).click();
    await settled(dialog);
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await page.getByText('Se envió 1 invitación.').waitFor();
    await page.getByRole('button', { name: 'Enviar invitaciones pendientes' }).waitFor({
      state: 'detached',
    });
    const membership = await app.db
      .selectFrom('event_exhibitors')
      .select(['invited_at', 'invitation_message_id'])
      .where('event_id', '=', open.id)
      .where('exhibitor_id', '=', uninvitedId)
      .executeTakeFirstOrThrow();
    expect(membership.invited_at).not.toBeNull();
    expect(membership.invitation_message_id).not.toBeNull();
    await context.close();
  });

  it('"Cerrar votación ahora" asks, then ends voting at once; an extension may tell the exhibitors, at 390 px', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(`/admin/event/${open.id}/exhibitors`);
    await page.getByRole('heading', { name: open.name }).waitFor();
    await page.getByRole('button', { name: 'Cerrar votación ahora' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Cerrar votación ahora?' });
    await settled(dialog);
    await dialog.getByText(MSG.closeVotingWarning).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'close-voting-390');
    await dialog.getByRole('button', { name: 'Cerrar votación' }).click();
    await page.getByText(MSG.votingClosedNotice).waitFor();
    await page.getByRole('button', { name: 'Cerrar votación ahora' }).waitFor({
      state: 'detached',
    });
    const event = await app.db
      .selectFrom('events')
      .select(['vote_deadline', 'voting_closed_at'])
      .where('id', '=', open.id)
      .executeTakeFirstOrThrow();
    expect(event.vote_deadline).toBe(dateIn(0));
    expect(event.voting_closed_at).not.toBeNull();
    await page.getByRole('tab', { name: 'Historial' }).click();
    await page
      .getByText('Votación cerrada', { exact: true })
      .filter({ visible: true })
      .first()
      .waitFor();
    await expectAccessible(page);

    // Extending it again: "Editar evento" offers to tell the invited exhibitors.
    await page.getByRole('button', { name: 'Editar evento' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar evento' });
    await settled(edit);
    expect(await edit.getByRole('checkbox', { name: 'Avisar a los expositores' }).count()).toBe(0);
    await edit.getByLabel('Fecha límite').fill(typed(dateIn(25)));
    await edit.getByRole('checkbox', { name: 'Avisar a los expositores' }).check();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'extend-notify-390');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await edit.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Cerrar votación ahora' }).waitFor();
    const invited = await app.db
      .selectFrom('event_exhibitors')
      .innerJoin('exhibitors', 'exhibitors.id', 'event_exhibitors.exhibitor_id')
      .select('exhibitors.email')
      .where('event_id', '=', open.id)
      .where('invited_at', 'is not', null)
      .orderBy('exhibitors.email')
      .execute();
    const notices = await app.db
      .selectFrom('mail_outbox')
      .select('to_address')
      .where('event_id', '=', open.id)
      .where('template', '=', 'voting-extended')
      .orderBy('to_address')
      .execute();
    expect(notices.map((m) => m.to_address)).toEqual(invited.map((m) => m.email));
    await context.close();
  }, 120_000);
});
