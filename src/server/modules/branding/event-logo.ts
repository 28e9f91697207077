import { createHash } from 'node:crypto';
import { MSG } from '../../../shared/messages.ts';
import type { SignedInAdmin } from '../../../shared/signed-in.ts';
import type { Db } from '../../db/connection.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { notFound } from '../../lib/errors.ts';
import { getEventOr404, inEventTransaction } from '../../lib/guards.ts';
import { iso } from '../../lib/time.ts';
import { loadLogo, type Logo } from './logo.ts';

/*
 * "Logo del evento": an event may have a logo of its own, shown instead of the programme's on its
 * exhibitor's screens, in its emails and in its presentation; everything else keeps the
 * programme's. Its bytes live in event_logos, its ETag on the event (which says it has one).
 */

/** The event's own logo, or null when it shows the programme's. */
export async function loadOwnEventLogo(db: Db, eventId: string): Promise<Logo | null> {
  const row = await db
    .selectFrom('events as e')
    .innerJoin('event_logos as l', 'l.event_id', 'e.id')
    .select(['l.logo_png', 'e.logo_etag'])
    .where('e.id', '=', eventId)
    .executeTakeFirst();
  return row?.logo_etag ? { png: row.logo_png, etag: row.logo_etag } : null;
}

/** The logo an event's pages and emails show: its own, or the programme's. */
export async function loadEventLogo(db: Db, eventId: string | null): Promise<Logo> {
  return (eventId ? await loadOwnEventLogo(db, eventId) : null) ?? loadLogo(db);
}

/** An event, as the input of a service that reads one. */
export interface EventRef {
  eventId: string;
}

/** For an administrator: 404 "No se econtró el evento" for a missing one. */
export async function eventLogoForAdmin(db: Db, { eventId }: EventRef): Promise<Logo> {
  await getEventOr404(db, eventId);
  return loadEventLogo(db, eventId);
}

/**
 * For an exhibitor: only an event they are invited to and that is not archived, as their
 * nomination screen; any other is the same 404, so no event id can be probed through its logo.
 */
export async function eventLogoForExhibitor(
  db: Db,
  { exhibitorId, eventId }: EventRef & { exhibitorId: string },
): Promise<Logo> {
  const member = await db
    .selectFrom('event_exhibitors as m')
    .innerJoin('events as e', 'e.id', 'm.event_id')
    .select('m.event_id')
    .where('m.event_id', '=', eventId)
    .where('m.exhibitor_id', '=', exhibitorId)
    .where('m.invited_at', 'is not', null)
    .where('e.archived_at', 'is', null)
    .executeTakeFirst();
  if (!member) throw notFound(MSG.eventNotFound);
  return loadEventLogo(db, eventId);
}

export interface EventLogoChange extends EventRef {
  admin: SignedInAdmin;
}

/** Sets the event's own logo (already checked and re-encoded by `prepareLogo`) and records it. */
export async function replaceEventLogo(
  deps: AppDeps,
  { admin, eventId, png }: EventLogoChange & { png: Buffer },
): Promise<{ etag: string }> {
  const digest = createHash('sha256').update(png).digest('hex');
  const etag = `"event-${digest.slice(0, 32)}"`;
  await inEventTransaction(deps, eventId, async (tx, _event, now) => {
    const values = { logo_png: png, updated_by: admin.adminId, updated_at: iso(now) };
    await tx
      .insertInto('event_logos')
      .values({ event_id: eventId, ...values })
      .onConflict((oc) => oc.column('event_id').doUpdateSet(values))
      .execute();
    await tx.updateTable('events').set({ logo_etag: etag }).where('id', '=', eventId).execute();
    await recordAudit(tx, admin, now, {
      action: 'event.logo_replaced',
      entityType: 'event',
      entityId: eventId,
      eventId,
      details: { bytes: png.length, sha256: digest },
    });
  });
  return { etag };
}

/** "Quitar": the event shows the programme's logo again. Nothing to record when it had none. */
export async function removeEventLogo(
  deps: AppDeps,
  { admin, eventId }: EventLogoChange,
): Promise<void> {
  await inEventTransaction(deps, eventId, async (tx, event, now) => {
    if (event.logo_etag === null) return;
    await tx.deleteFrom('event_logos').where('event_id', '=', eventId).execute();
    await tx.updateTable('events').set({ logo_etag: null }).where('id', '=', eventId).execute();
    await recordAudit(tx, admin, now, {
      action: 'event.logo_removed',
      entityType: 'event',
      entityId: eventId,
      eventId,
      details: {},
    });
  });
}
