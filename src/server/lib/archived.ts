import { sql } from 'kysely';
import { MSG } from '../../shared/messages.ts';
import type { Db, Engine } from '../db/connection.ts';
import { prepared } from '../db/prepared.ts';
import type { Transact, Tx } from '../db/transact.ts';
import { AppError, notFound } from './errors.ts';

/**
 * The key of an event's archive lock on PostgreSQL: every write to the event holds it shared for
 * its transaction, archiving holds it exclusively, so an archive waits for the writes already
 * running and every later write sees the event archived. (SQLite runs one write at a time.)
 */
export const ARCHIVE_LOCK_CLASS = 0x50524d; // "PRM"

async function lockEvent(tx: Tx, engine: Engine, eventId: string, mode: 'shared' | 'exclusive') {
  if (engine !== 'postgres') return;
  await (
    mode === 'shared'
      ? sql`select pg_advisory_xact_lock_shared(${ARCHIVE_LOCK_CLASS}, hashtext(${eventId}))`
      : sql`select pg_advisory_xact_lock(${ARCHIVE_LOCK_CLASS}, hashtext(${eventId}))`
  ).execute(tx);
}

/** Taken by archiving and un-archiving, before they change the event, inside their transaction. */
export const lockEventForArchive = (tx: Tx, engine: Engine, eventId: string) =>
  lockEvent(tx, engine, eventId, 'exclusive');

/** Every write to an event asks (twice: before its handler and in its transaction). */
const selectArchivedAt = prepared<{ eventId: string }, { archived_at: string | null }>((db, arg) =>
  db.selectFrom('events').select('archived_at').where('id', '=', arg('eventId')),
);

/**
 * 409 "El evento está archivado" when the event is archived. An exhibitor who is not in the event
 * gets the event's 404 instead, as for any event they cannot see. A missing event passes: the
 * write's own lookup answers its 404.
 */
export async function refuseArchivedEvent(
  db: Db,
  eventId: string,
  exhibitorId: string | null,
): Promise<void> {
  const event = (await selectArchivedAt(db, { eventId })).rows[0];
  if (!event?.archived_at) return;
  if (exhibitorId !== null) {
    const member = await db
      .selectFrom('event_exhibitors')
      .select('event_id')
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .executeTakeFirst();
    if (!member) throw notFound(MSG.eventNotFound);
  }
  throw new AppError('event_archived');
}

/**
 * `transact` for a write to one event: each transaction first takes the event's archive lock
 * (shared) and checks again that the event is not archived, so a write that raced an archive
 * either commits before it or is refused.
 */
export function transactOnOpenEvent(
  transact: Transact,
  engine: Engine,
  eventId: string,
  exhibitorId: string | null,
): Transact {
  return (work) =>
    transact(async (tx) => {
      await lockEvent(tx, engine, eventId, 'shared');
      await refuseArchivedEvent(tx, eventId, exhibitorId);
      return work(tx);
    });
}

/**
 * `transact` for a write whose own transaction refuses an archived event (its first statement
 * reads the event): each transaction only takes the event's archive lock (shared), under which that
 * read sees an archive that raced it.
 */
export function transactUnderArchiveLock(
  transact: Transact,
  engine: Engine,
  eventId: string,
): Transact {
  return (work) =>
    transact(async (tx) => {
      await lockEvent(tx, engine, eventId, 'shared');
      return work(tx);
    });
}
