import type { Db } from '../db/connection.ts';
import { iso } from './time.ts';

/*
 * Where each exhibitor signed in to an event from (migration 0029, docs/decisions/0035): written
 * when a session first opens the event (modules/nominations), read by "Mismo dispositivo"
 * (modules/integrity), forgotten by the background worker's housekeeping.
 */

/** The browser a request came from. */
export interface Device {
  /** The device cookie's id, or null when the browser sent none. */
  deviceId: string | null;
  ip: string;
  /** Empty when the browser sent none. */
  userAgent: string;
}

/**
 * Records a session's first opening of an event. Two tabs opening it at once record one row: the
 * second insert finds the key taken and does nothing.
 */
export async function recordDeviceSignIn(
  db: Db,
  opening: { eventId: string; exhibitorId: string; sessionId: string; device: Device; at: Date },
): Promise<void> {
  await db
    .insertInto('device_sign_ins')
    .values({
      event_id: opening.eventId,
      session_id: opening.sessionId,
      exhibitor_id: opening.exhibitorId,
      device_id: opening.device.deviceId,
      ip: opening.device.ip,
      user_agent: opening.device.userAgent,
      signed_in_at: iso(opening.at),
    })
    .onConflict((conflict) => conflict.columns(['event_id', 'session_id']).doNothing())
    .execute();
}

/**
 * How long after an event's date its sign-ins are kept: the results are reviewed, and contested,
 * in the weeks after the ceremony; addresses and browsers are personal data kept no longer.
 */
export const DEVICE_SIGN_IN_RETENTION_DAYS = 90;

/** Deletes the sign-ins of events whose date is more than 90 days past. Hourly, by the worker. */
export async function pruneDeviceSignIns(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - DEVICE_SIGN_IN_RETENTION_DAYS * 86_400_000);
  const result = await db
    .deleteFrom('device_sign_ins')
    .where('event_id', 'in', (eb) =>
      eb.selectFrom('events').select('id').where('event_date', '<', iso(cutoff).slice(0, 10)),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
