import type { CategoryAddress } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import type { NomineeView } from '../../../shared/schemas/nominee.ts';
import type { ExhibitorVotesResponse, VoteEdit } from '../../../shared/schemas/results.ts';
import { readNomineeFieldSettings } from '../../../shared/nominee-fields.ts';
import { CORRECTION_REASON_LABELS } from '../../../shared/correction-reasons.ts';
import type { SignedInAdmin } from '../../../shared/signed-in.ts';
import type { Db } from '../../db/connection.ts';
import type { AppDeps } from '../../deps.ts';
import { annulmentsOf, refuseAnnulledList } from '../../lib/annulled-lists.ts';
import { readEventCategories } from '../../lib/event-categories.ts';
import { checkRegistryRules } from '../../lib/registry-rules.ts';
import { recordAudit } from '../../lib/audit.ts';
import { recordListChange } from '../../mail/list-changes.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { getMemberOr404 } from '../../lib/guards.ts';
import {
  checkNomineeFields,
  storeNomineeFields,
  toNominee,
  toNomineeView,
  type ListKey,
} from '../../lib/nominee-rows.ts';
import { iso } from '../../lib/time.ts';

/** One exhibitor of an event. */
export interface MemberRef {
  eventId: string;
  exhibitorId: string;
}

/**
 * Every list of one exhibitor of the event (one per category of the event), in list order, with their versions. Each entry is read
 * with its list's version in one statement, so a list's version is the one of the entries shown
 * (a list without entries has nothing to correct: its version is read apart, 0 before any save).
 */
export async function exhibitorVotes(
  db: Db,
  { eventId, exhibitorId }: MemberRef,
): Promise<ExhibitorVotesResponse> {
  const { member } = await getMemberOr404(db, eventId, exhibitorId);
  const rows = await db
    .selectFrom('nominations as n')
    .innerJoin('nomination_lists as l', (join) =>
      join
        .onRef('l.event_id', '=', 'n.event_id')
        .onRef('l.exhibitor_id', '=', 'n.exhibitor_id')
        .onRef('l.category', '=', 'n.category'),
    )
    .selectAll('n')
    .select('l.version as list_version')
    .where('n.event_id', '=', eventId)
    .where('n.exhibitor_id', '=', exhibitorId)
    .orderBy('n.category')
    .orderBy('n.list_order')
    .execute();
  const lists = await db
    .selectFrom('nomination_lists')
    .select(['category', 'version'])
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', exhibitorId)
    .execute();
  const entries = (category: CategoryAddress) => rows.filter((row) => row.category === category);
  const version = (category: CategoryAddress) =>
    Number(
      entries(category)[0]?.list_version ??
        lists.find((list) => list.category === category)?.version ??
        0,
    );
  const annulments = await annulmentsOf(db, eventId, exhibitorId);
  const categories = await readEventCategories(db, eventId);
  return {
    exhibitor: { id: member.id, fullName: member.full_name, email: member.email },
    lists: Object.fromEntries(
      categories.map(({ address }) => [
        address,
        {
          nominees: entries(address).map(toNomineeView),
          version: version(address),
          annulment: annulments.get(address) ?? null,
        },
      ]),
    ),
  };
}

export interface VoteRef extends ListKey {
  order: number;
}

export interface EditVoteInput {
  admin: SignedInAdmin;
  /** The place corrected: event, exhibitor, category and order. */
  vote: VoteRef;
  edit: VoteEdit;
}

/**
 * The administrator's correction of one entry of an exhibitor's list (allowed after the deadline):
 * same place and nomination instant, new data. The correction names a place, so it is based on
 * the list's version the administrator read: when the list has changed since (the exhibitor moved
 * or removed an entry), the place may hold another nominee, and the correction is refused with
 * 409 `stale_list`, changing nothing. The version moves on so that an exhibitor's open screen sees
 * the change instead of overwriting it.
 */
export async function editVote(
  deps: AppDeps,
  { admin, vote: ref, edit }: EditVoteInput,
): Promise<{ nominee: NomineeView; version: number }> {
  const { reason, detail, version: expectedVersion, ...sent } = edit;
  const now = deps.clock.now();
  return deps.transact(async (tx) => {
    await getMemberOr404(tx, ref.eventId, ref.exhibitorId);
    // Claiming the version read (as the exhibitor's own saves do) takes the list's row lock on
    // PostgreSQL, so writers to this list queue here, and one that committed first leaves a newer
    // version that this update no longer matches.
    const list = await tx
      .updateTable('nomination_lists')
      .set((eb) => ({ version: eb('version', '+', 1), updated_at: iso(now) }))
      .where('event_id', '=', ref.eventId)
      .where('exhibitor_id', '=', ref.exhibitorId)
      .where('category', '=', ref.category)
      .where('version', '=', expectedVersion)
      // An annulled list is kept as it was annulled: restored first, then corrected.
      .where('annulled_at', 'is', null)
      .returning('version')
      .executeTakeFirst();
    if (!list && (await listExists(tx, ref))) {
      await refuseAnnulledList(tx, ref, 'admin');
      throw new AppError('stale_list');
    }
    const entries = list
      ? await tx
          .selectFrom('nominations')
          .selectAll()
          .where('event_id', '=', ref.eventId)
          .where('exhibitor_id', '=', ref.exhibitorId)
          .where('category', '=', ref.category)
          .execute()
      : [];
    const before = entries.find((entry) => entry.list_order === ref.order);
    if (!list || !before) throw notFound();
    // The event's "Datos del nominado", as for the exhibitor's own saves: required fields given,
    // unasked ones kept as the entry holds them.
    const event = await tx
      .selectFrom('events')
      .select(['nominee_fields', 'nominable_resellers', 'validate_cuit'])
      .where('id', '=', ref.eventId)
      .executeTakeFirstOrThrow();
    // "Solo los del padrón" and "Validar CUIT" hold for the organisation's corrections too.
    await checkRegistryRules(tx, event, sent.fiscalId);
    const input = checkNomineeFields(
      sent,
      readNomineeFieldSettings(event.nominee_fields),
      toNominee(before),
    );
    if (entries.some((e) => e.list_order !== ref.order && e.fiscal_id === sent.fiscalId)) {
      throw new AppError('duplicate_fiscal_id', {
        message: MSG.adminDuplicateFiscalId,
        fields: { fiscalId: MSG.adminDuplicateFiscalId },
      });
    }
    await storeNomineeFields(tx, ref, ref.order, input, now);
    await recordAudit(tx, admin, now, {
      action: 'vote.edit',
      entityType: 'nomination',
      entityId: `${ref.exhibitorId}/${ref.category}/${ref.order}`,
      eventId: ref.eventId,
      details: {
        exhibitorId: ref.exhibitorId,
        category: ref.category,
        order: ref.order,
        reason,
        detail,
        before: toNominee(before),
        after: input,
      },
    });
    // The exhibitor is told, with the list before and after and the reason as "Historial" shows it.
    const ordered = [...entries].sort((a, b) => a.list_order - b.list_order);
    await recordListChange(
      tx,
      { engine: deps.engine, now },
      {
        eventId: ref.eventId,
        exhibitorId: ref.exhibitorId,
        category: ref.category,
        before: ordered,
        after: ordered.map((entry) =>
          entry.list_order === ref.order ? { fiscalId: input.fiscalId, name: input.name } : entry,
        ),
        adminId: admin.adminId,
        reason: `${CORRECTION_REASON_LABELS[reason]}${detail ? ` (${detail})` : ''}`,
      },
    );
    return { nominee: { ...input, order: ref.order }, version: Number(list.version) };
  });
}

async function listExists(db: Db, key: ListKey): Promise<boolean> {
  const row = await db
    .selectFrom('nomination_lists')
    .select('version')
    .where('event_id', '=', key.eventId)
    .where('exhibitor_id', '=', key.exhibitorId)
    .where('category', '=', key.category)
    .executeTakeFirst();
  return row !== undefined;
}
