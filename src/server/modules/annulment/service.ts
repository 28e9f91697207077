import { MSG } from '../../../shared/messages.ts';
import type { ListAnnulment } from '../../../shared/schemas/results.ts';
import type { SignedInAdmin } from '../../../shared/signed-in.ts';
import type { Tx } from '../../db/transact.ts';
import type { AppDeps } from '../../deps.ts';
import { readAnnulment } from '../../lib/annulled-lists.ts';
import { recordAudit } from '../../lib/audit.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { getMemberOr404 } from '../../lib/guards.ts';
import { toNominee, type ListKey } from '../../lib/nominee-rows.ts';
import { iso } from '../../lib/time.ts';
import { recordListChange } from '../../mail/list-changes.ts';

/** One exhibitor's list of one category, and the administrator who annuls or restores it. */
export interface AnnulRequest extends ListKey {
  admin: SignedInAdmin;
}

/**
 * Sets or clears the list's annulment, moving its version on (an open screen reloads instead of
 * writing over it), then its rows' `annulled` flag. The first statement takes the list's row lock
 * on PostgreSQL, which every writer of the list takes before reading it (an exhibitor's save
 * claiming its version, premios_save_nominee, a correction, a merge), so the rows flagged are the
 * list as last committed and nothing changes them before this commits. Each flagged row leaves (or
 * re-enters) nominee_totals through the update trigger of migration 0024: the same arithmetic as
 * deleting (or inserting) it, so the totals stay equal to a recomputation. SQLite has one writer.
 */
async function flagList(
  tx: Tx,
  key: ListKey,
  annulment: ListAnnulment | null,
  now: Date,
): Promise<boolean> {
  const changed = await tx
    .updateTable('nomination_lists')
    .set((eb) => ({
      version: eb('version', '+', 1),
      updated_at: iso(now),
      annulled_at: annulment?.at ?? null,
      annulled_reason: annulment?.reason ?? null,
    }))
    .where('event_id', '=', key.eventId)
    .where('exhibitor_id', '=', key.exhibitorId)
    .where('category', '=', key.category)
    .where('annulled_at', annulment ? 'is' : 'is not', null)
    .executeTakeFirst();
  if (changed.numUpdatedRows !== 1n) return false;
  await tx
    .updateTable('nominations')
    .set({ annulled: annulment ? 1 : 0 })
    .where('event_id', '=', key.eventId)
    .where('exhibitor_id', '=', key.exhibitorId)
    .where('category', '=', key.category)
    .execute();
  return true;
}

async function listEntries(tx: Tx, key: ListKey) {
  const rows = await tx
    .selectFrom('nominations')
    .selectAll()
    .where('event_id', '=', key.eventId)
    .where('exhibitor_id', '=', key.exhibitorId)
    .where('category', '=', key.category)
    .orderBy('list_order')
    .execute();
  return rows.map((row) => ({ order: row.list_order, ...toNominee(row) }));
}

/**
 * "Anular votos": the list is kept as it is, counts for nothing from now on (points, per-place
 * counts, votes, duplicates, nominee pages, exports) and refuses every change, by its exhibitor
 * or an administrator, until it is restored. One transaction: the flag, the totals and the
 * history entry commit together. 404 for an exhibitor not in the event or a list without votes,
 * 409 for a list already annulled.
 */
export async function annulList(
  deps: AppDeps,
  { admin, reason, ...key }: AnnulRequest & { reason: string },
): Promise<ListAnnulment> {
  return deps.transact(async (tx) => {
    const now = deps.clock.now();
    const { member } = await getMemberOr404(tx, key.eventId, key.exhibitorId);
    const annulment: ListAnnulment = { at: iso(now), reason };
    if (!(await flagList(tx, key, annulment, now))) {
      const current = await readAnnulment(tx, key);
      if (current) throw new AppError('list_annulled', { message: MSG.listAlreadyAnnulled });
      throw notFound(MSG.nothingToAnnul);
    }
    const entries = await listEntries(tx, key);
    // An emptied list has nothing to annul: the transaction is undone with the refusal.
    if (entries.length === 0) throw notFound(MSG.nothingToAnnul);
    await recordAudit(tx, admin, now, {
      action: 'list.annul',
      entityType: 'nomination_list',
      entityId: `${key.exhibitorId}/${key.category}`,
      eventId: key.eventId,
      details: {
        ...whereDetails(key),
        fullName: member.full_name,
        annulReason: reason,
        entries,
      },
    });
    // The exhibitor is told like of any other change; the list itself stays as it was.
    await recordListChange(
      tx,
      { engine: deps.engine, now },
      {
        ...key,
        before: entries,
        after: entries,
        adminId: admin.adminId,
        reason: annulledChangeReason(reason),
      },
    );
    return annulment;
  });
}

const whereDetails = (key: ListKey) => ({ exhibitorId: key.exhibitorId, category: key.category });

/**
 * "Restablecer": the annulled list counts again exactly as it was kept, and its exhibitor may
 * change it again. One transaction; 409 for a list that is not annulled.
 */
export async function restoreList(deps: AppDeps, { admin, ...key }: AnnulRequest): Promise<void> {
  await deps.transact(async (tx) => {
    const now = deps.clock.now();
    const { member } = await getMemberOr404(tx, key.eventId, key.exhibitorId);
    // Read under the lock the restore takes: the reason of the annulment being reversed.
    const lockedAnnulment = await lockedAnnulmentOf(tx, deps.engine, key);
    if (!lockedAnnulment || !(await flagList(tx, key, null, now))) {
      throw new AppError('list_not_annulled');
    }
    const entries = await listEntries(tx, key);
    await recordAudit(tx, admin, now, {
      action: 'list.restore',
      entityType: 'nomination_list',
      entityId: `${key.exhibitorId}/${key.category}`,
      eventId: key.eventId,
      details: {
        ...whereDetails(key),
        fullName: member.full_name,
        annulReason: lockedAnnulment.reason,
        entries,
      },
    });
    await recordListChange(
      tx,
      { engine: deps.engine, now },
      {
        ...key,
        before: entries,
        after: entries,
        adminId: admin.adminId,
        reason: restoredChangeReason(lockedAnnulment.reason),
      },
    );
  });
}

/** What the exhibitor's message and banner say of an annulment and of its reversal. */
export const annulledChangeReason = (reason: string): string => `Votos anulados: ${reason}`;
export const restoredChangeReason = (reason: string): string =>
  `Votos restablecidos (se habían anulado por: ${reason})`;

/** The list's annulment, its row locked on PostgreSQL until the transaction ends. */
async function lockedAnnulmentOf(
  tx: Tx,
  engine: AppDeps['engine'],
  key: ListKey,
): Promise<ListAnnulment | null> {
  const query = tx
    .selectFrom('nomination_lists')
    .select(['annulled_at', 'annulled_reason'])
    .where('event_id', '=', key.eventId)
    .where('exhibitor_id', '=', key.exhibitorId)
    .where('category', '=', key.category);
  const list = await (engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  return list?.annulled_at && list.annulled_reason !== null
    ? { at: list.annulled_at, reason: list.annulled_reason }
    : null;
}
