import type { CategoryAddress } from '../../shared/constants.ts';
import { annulledListText, MSG } from '../../shared/messages.ts';
import type { ListAnnulment } from '../../shared/schemas/results.ts';
import type { Db } from '../db/connection.ts';
import type { Tx } from '../db/transact.ts';
import { AppError } from './errors.ts';
import type { ListKey } from './nominee-rows.ts';

/*
 * Annulled lists (migration 0024, docs/decisions/0031): what every writer of a list and every
 * screen that shows one need to know of an annulment. Annulling and restoring live in
 * modules/annulment.
 */

/** The list's annulment, or null while it counts (undefined: the list was never saved). */
export async function readAnnulment(
  db: Db | Tx,
  key: ListKey,
): Promise<ListAnnulment | null | undefined> {
  const list = await db
    .selectFrom('nomination_lists')
    .select(['annulled_at', 'annulled_reason'])
    .where('event_id', '=', key.eventId)
    .where('exhibitor_id', '=', key.exhibitorId)
    .where('category', '=', key.category)
    .executeTakeFirst();
  if (!list) return undefined;
  return list.annulled_at !== null && list.annulled_reason !== null
    ? { at: list.annulled_at, reason: list.annulled_reason }
    : null;
}

/**
 * The annulments of one exhibitor's lists in the event (the exhibitor-votes page), keyed by
 * category address; a list that counts, or was never saved, has no key.
 */
export async function annulmentsOf(
  db: Db,
  eventId: string,
  exhibitorId: string,
): Promise<Map<CategoryAddress, ListAnnulment>> {
  const lists = await db
    .selectFrom('nomination_lists')
    .select(['category', 'annulled_at', 'annulled_reason'])
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', exhibitorId)
    .where('annulled_at', 'is not', null)
    .execute();
  const annulments = new Map<CategoryAddress, ListAnnulment>();
  for (const list of lists) {
    if (list.annulled_at !== null && list.annulled_reason !== null) {
      annulments.set(list.category, { at: list.annulled_at, reason: list.annulled_reason });
    }
  }
  return annulments;
}

/** How many lists of the category are annulled ("Listas anuladas: {n}"). */
export async function annulledListCount(
  db: Db,
  eventId: string,
  category: CategoryAddress,
): Promise<number> {
  const row = await db
    .selectFrom('nomination_lists')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('event_id', '=', eventId)
    .where('category', '=', category)
    .where('annulled_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The refusal of any change to an annulled list, by its exhibitor or an administrator: 409 with
 * the organisation's reason for the exhibitor, and what to do for an administrator.
 */
export const annulledListError = (reason: string, by: 'exh' | 'admin') =>
  new AppError('list_annulled', {
    message: by === 'exh' ? annulledListText(reason) : MSG.annulledListNotCorrectable,
  });

/** Refuses (409) a change to this list when it is annulled; the caller holds the list's lock. */
export async function refuseAnnulledList(tx: Tx, key: ListKey, by: 'exh' | 'admin'): Promise<void> {
  const annulment = await readAnnulment(tx, key);
  if (annulment) throw annulledListError(annulment.reason, by);
}
