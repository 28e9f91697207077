import type { Selectable } from 'kysely';
import type { CategoryAddress } from '../../../shared/constants.ts';
import {
  AUDIT_ACTIONS,
  readAuditDetails,
  type MergeDetails,
} from '../../../shared/audit-entries.ts';
import { MSG } from '../../../shared/messages.ts';
import {
  MERGE_PREVIEW_TOP,
  type DuplicatesResponse,
  type MergeInput,
  type MergePreviewResponse,
} from '../../../shared/schemas/results.ts';
import type { SignedInAdmin as Admin } from '../../../shared/signed-in.ts';
import type { Db, Engine } from '../../db/connection.ts';
import type { NominationsTable } from '../../db/schema.ts';
import type { Tx } from '../../db/transact.ts';
import type { AppDeps } from '../../deps.ts';
import { MERGE_ACTION, recordAudit, UNDO_MERGE_ACTION, undoneMerges } from '../../lib/audit.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { getEventOr404, inEventTransaction } from '../../lib/guards.ts';
import { iso } from '../../lib/time.ts';
import { recordListChanges } from '../../mail/list-changes.ts';
import {
  duplicateNomineeGroups,
  nameKeys,
  type RankedNominee,
  type RegistryNames,
} from './duplicate-nominees.ts';
import {
  mergeBallots,
  rankingOf,
  type Ballot,
  type BallotEntry,
  type RankingEntry,
} from './merge-ballots.ts';
import { rankedNames, type RankedName } from './ranked-names.ts';
import { findEventCategoryOr404 } from '../../lib/event-categories.ts';

/** A stored nomination as the merge's audit entry keeps it, to compare and to restore. */
type StoredVote = Omit<
  Selectable<NominationsTable>,
  'event_id' | 'exhibitor_id' | 'category' | 'annulled'
>;

interface ListChange {
  exhibitorId: string;
  before: StoredVote[];
  after: StoredVote[];
}

/** What a merge's audit entry holds (its schema in `AUDIT_ACTIONS`). */
export type { MergeDetails };

/** One category of an event, where duplicates are looked for and merged. */
export interface CategoryRef {
  eventId: string;
  category: CategoryAddress;
}

/** A merge of one category: the ids of `from` become `into`. */
export type MergeRequest = CategoryRef & MergeInput;

/** A fiscal id the duplicate finder compares, with what the dialog shows of it. */
type GroupCandidate = RankedNominee & {
  name: string;
  registeredName: string;
  position: number | null;
};

/**
 * The groups of fiscal ids of one category that are probably the same reseller, registry entries
 * whose names match a typed id's among them (with or without votes: `registryCandidates`).
 */
export async function duplicateGroups(
  db: Db,
  { eventId, category }: CategoryRef,
): Promise<DuplicatesResponse> {
  await getEventOr404(db, eventId);
  const rows = await rankedNames(db, { eventId, category });
  const registry = await registryCandidates(db, rows);
  const ranked = rows.map((row): GroupCandidate => {
    const entry = registry.get(row.fiscalId);
    return {
      ...row,
      resellerName: row.name,
      razonSocial: row.registeredName,
      // A registry id is named as the registry has it.
      ...(entry
        ? { registry: entry, name: entry.resellerName, registeredName: entry.razonSocial }
        : {}),
    };
  });
  const rankedIds = new Set(rows.map((row) => row.fiscalId));
  const unranked = [...registry]
    .filter(([fiscalId]) => !rankedIds.has(fiscalId))
    .map(([fiscalId, entry]): GroupCandidate => ({
      fiscalId,
      name: entry.resellerName,
      registeredName: entry.razonSocial,
      resellerName: entry.resellerName,
      razonSocial: entry.razonSocial,
      points: 0,
      position: null,
      registry: entry,
      unranked: true,
    }));
  const groups = duplicateNomineeGroups([...ranked, ...unranked]);
  return {
    groups: groups.map((group) => ({
      nominees: group.nominees.map((nominee) => ({
        fiscalId: nominee.fiscalId,
        name: nominee.name,
        registeredName: nominee.registeredName,
        points: nominee.points,
        position: nominee.position,
        inRegistry: nominee.registry !== undefined,
      })),
      reasons: group.reasons,
    })),
  };
}

/**
 * The registry entries "Posibles duplicados" needs, by fiscal id: those among the ranking's ids,
 * and those whose name or razón social matches (resellerNameKey) a name of a ranked id that is not
 * in the registry. The registry is read whole (a few short columns; 20,000 entries are read and
 * keyed within the duplicates' budget, `npm run bench`): a name key is computed, not stored.
 */
async function registryCandidates(
  db: Db,
  rows: readonly RankedName[],
): Promise<Map<string, RegistryNames>> {
  const entries = await db
    .selectFrom('resellers')
    .select(['fiscal_id', 'name', 'registered_name'])
    .execute();
  if (entries.length === 0) return new Map();
  const inRegistry = new Set(entries.map((entry) => entry.fiscal_id));
  const typedKeys = new Set(
    rows
      .filter((row) => !inRegistry.has(row.fiscalId))
      .flatMap((row) => nameKeys({ resellerName: row.name, razonSocial: row.registeredName })),
  );
  const rankedIds = new Set(rows.map((row) => row.fiscalId));
  const found = new Map<string, RegistryNames>();
  for (const entry of entries) {
    const names = { resellerName: entry.name, razonSocial: entry.registered_name };
    const matchesTyped = typedKeys.size > 0 && nameKeys(names).some((key) => typedKeys.has(key));
    if (rankedIds.has(entry.fiscal_id) || matchesTyped) {
      found.set(entry.fiscal_id, names);
    }
  }
  return found;
}

const fromIds = (input: MergeInput) => [...new Set(input.from)].filter((id) => id !== input.into);

/** An entry of a ballot read from the store, carrying its stored row for the merge's write. */
type StoredEntry = BallotEntry & { vote: StoredVote };

function toBallots(
  rows: readonly Selectable<NominationsTable>[],
  category: CategoryAddress,
): Ballot<StoredEntry>[] {
  const byExhibitor = new Map<string, Selectable<NominationsTable>[]>();
  for (const row of rows) {
    const list = byExhibitor.get(row.exhibitor_id) ?? [];
    list.push(row);
    byExhibitor.set(row.exhibitor_id, list);
  }
  return [...byExhibitor].map(([exhibitorId, list]) => ({
    exhibitorId,
    category,
    entries: list
      .sort((a, b) => a.list_order - b.list_order)
      .map((row) => ({
        fiscalId: row.fiscal_id,
        nominatedAt: row.nominated_at,
        vote: stored(row),
      })),
  }));
}

async function categoryVotes(db: Db | Tx, eventId: string, category: CategoryAddress) {
  return (
    db
      .selectFrom('nominations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('category', '=', category)
      // An annulled list counts for nothing (migration 0024): the ranking a merge changes is without it.
      .where('annulled', '=', 0)
      .execute()
  );
}

const unknownInto = () =>
  new AppError('invalid_input', {
    message: MSG.mergeUnknownInto,
    fields: { into: MSG.mergeUnknownInto },
  });

const nothingLeftToMerge = () =>
  new AppError('nothing_to_merge', { message: MSG.mergeNothingLeft });

/** Whether the fiscal id is an entry of the programme's registry ("Padrón"). */
async function inRegistry(db: Db | Tx, fiscalId: string): Promise<boolean> {
  const entry = await db
    .selectFrom('resellers')
    .select('fiscal_id')
    .where('fiscal_id', '=', fiscalId)
    .executeTakeFirst();
  return entry !== undefined;
}

/**
 * 400 unless `into` has votes or is a registry entry (which may have none yet: "Posibles
 * duplicados" suggests merging a typed id into it), 409 unless some id of `from` still has votes.
 */
async function checkMerge(
  db: Db,
  rows: readonly Selectable<NominationsTable>[],
  input: MergeInput,
): Promise<string[]> {
  const from = fromIds(input);
  if (!rows.some((row) => row.fiscal_id === input.into) && !(await inRegistry(db, input.into))) {
    throw unknownInto();
  }
  if (!rows.some((row) => from.includes(row.fiscal_id))) throw nothingLeftToMerge();
  return from;
}

/** The ranking before and after merging, computed in memory; nothing is stored. */
export async function previewMerge(db: Db, input: MergeRequest): Promise<MergePreviewResponse> {
  const { eventId, category } = input;
  await getEventOr404(db, eventId);
  const settings = await findEventCategoryOr404(db, eventId, category);
  const scheme = { nomineeLimit: Number(settings.nominee_limit), scoring: settings.scoring };
  const rows = await categoryVotes(db, eventId, category);
  const from = await checkMerge(db, rows, input);
  const ballots = toBallots(rows, category);
  const involved = new Set([input.into, ...from]);
  const shown = (ranking: RankingEntry[]) =>
    ranking
      .filter((row, index) => index < MERGE_PREVIEW_TOP || involved.has(row.fiscalId))
      .map(({ fiscalId, position, points }) => ({ fiscalId, position, points }));
  return {
    before: shown(rankingOf(ballots, scheme)),
    after: shown(
      rankingOf(mergeBallots(ballots, { category, from, into: input.into }).ballots, scheme),
    ),
  };
}

const stored = (row: StoredVote): StoredVote => ({
  list_order: row.list_order,
  fiscal_id: row.fiscal_id,
  name: row.name,
  registered_name: row.registered_name,
  contact_name: row.contact_name,
  contact_position: row.contact_position,
  phone: row.phone,
  email: row.email,
  location: row.location,
  city: row.city,
  nominated_at: row.nominated_at,
  updated_at: row.updated_at,
});

/**
 * Takes the row locks of these exhibitors' lists of the category until the transaction ends and
 * answers the ids of the lists that exist. Every other writer of a list takes the same lock before
 * it reads the list (an exhibitor's save claiming its version, a correction moving the version on),
 * so the rows read after this stay as read until commit. The locks are taken in exhibitor id order,
 * in one statement, so that two administrators' rewrites never wait on each other in a circle.
 * SQLite has one writer: the transaction already holds the database.
 */
async function lockLists(
  tx: Tx,
  engine: Engine,
  eventId: string,
  category: CategoryAddress,
  exhibitorIds: readonly string[],
): Promise<string[]> {
  if (exhibitorIds.length === 0) return [];
  const lists = tx
    .selectFrom('nomination_lists')
    .select('exhibitor_id')
    .where('event_id', '=', eventId)
    .where('category', '=', category)
    .where('exhibitor_id', 'in', exhibitorIds)
    .orderBy('exhibitor_id');
  const locked = await (engine === 'postgres' ? lists.forUpdate() : lists).execute();
  return locked.map((row) => row.exhibitor_id);
}

/**
 * Moves the versions of lists this transaction rewrites (and has locked) on, so that an exhibitor's
 * open screen gets 409 `stale_list` and reloads instead of overwriting the change.
 */
async function bumpVersions(
  tx: Tx,
  eventId: string,
  category: CategoryAddress,
  exhibitorIds: readonly string[],
  now: Date,
): Promise<void> {
  if (exhibitorIds.length === 0) return;
  await tx
    .updateTable('nomination_lists')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: iso(now) }))
    .where('event_id', '=', eventId)
    .where('category', '=', category)
    .where('exhibitor_id', 'in', exhibitorIds)
    .execute();
}

/** Whether any of these exhibitors' lists of the category is annulled. */
async function anyAnnulled(
  tx: Tx,
  eventId: string,
  category: CategoryAddress,
  exhibitorIds: readonly string[],
): Promise<boolean> {
  if (exhibitorIds.length === 0) return false;
  const annulled = await tx
    .selectFrom('nomination_lists')
    .select('exhibitor_id')
    .where('event_id', '=', eventId)
    .where('category', '=', category)
    .where('exhibitor_id', 'in', exhibitorIds)
    .where('annulled_at', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return annulled !== undefined;
}

/** The stored votes of these exhibitors' lists of the category. */
async function listVotes(
  tx: Tx,
  eventId: string,
  category: CategoryAddress,
  exhibitorIds: readonly string[],
): Promise<Selectable<NominationsTable>[]> {
  if (exhibitorIds.length === 0) return [];
  return (
    tx
      .selectFrom('nominations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('category', '=', category)
      .where('exhibitor_id', 'in', exhibitorIds)
      // A merge leaves annulled lists as they were annulled (an undo refuses them before this).
      .where('annulled', '=', 0)
      .orderBy('exhibitor_id')
      .orderBy('list_order')
      .execute()
  );
}

/**
 * A merged ballot as the rows to store: its entries renumbered from 1, each with its fiscal id
 * from the merge and its other data from its stored row; a row whose place or id changed is
 * stamped `now`.
 */
function storedVotes(ballot: Ballot<StoredEntry>, now: Date): StoredVote[] {
  return ballot.entries.map(({ fiscalId, vote }, index) => {
    const order = index + 1;
    const unchanged = order === vote.list_order && fiscalId === vote.fiscal_id;
    return {
      ...vote,
      list_order: order,
      fiscal_id: fiscalId,
      updated_at: unchanged ? vote.updated_at : iso(now),
    };
  });
}

/** Replaces the rows of one exhibitor's list by `votes`. */
async function writeList(
  tx: Tx,
  eventId: string,
  category: CategoryAddress,
  exhibitorId: string,
  votes: readonly StoredVote[],
): Promise<void> {
  await tx
    .deleteFrom('nominations')
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', exhibitorId)
    .where('category', '=', category)
    .execute();
  if (votes.length === 0) return;
  await tx
    .insertInto('nominations')
    .values(
      votes.map((vote) => ({ ...vote, event_id: eventId, exhibitor_id: exhibitorId, category })),
    )
    .execute();
}

/**
 * Rewrites every vote of `from` in the event's category as a vote for `into`, in one transaction.
 * A list that held the reseller more than once keeps its better-ranked entry (with that entry's
 * data and nomination instant) and is renumbered from 1. The audit entry keeps every touched list
 * before and after, which is what the undo restores and checks against.
 */
export async function mergeNominees(
  deps: AppDeps,
  { admin, ...input }: MergeRequest & { admin: Admin },
): Promise<{ auditId: number; lists: number }> {
  const { eventId, category } = input;
  return inEventTransaction(deps, eventId, async (tx, _event, now) => {
    const from = fromIds(input);
    const into = await tx
      .selectFrom('nominations')
      .select('fiscal_id')
      .where('event_id', '=', eventId)
      .where('category', '=', category)
      .where('fiscal_id', '=', input.into)
      .where('annulled', '=', 0)
      .limit(1)
      .executeTakeFirst();
    // A registry entry may be the target without votes of its own.
    if (!into && !(await inRegistry(tx, input.into))) throw unknownInto();
    // Only says which lists to lock; what is merged is read again under the locks.
    const holders = await tx
      .selectFrom('nominations')
      .select('exhibitor_id')
      .distinct()
      .where('event_id', '=', eventId)
      .where('category', '=', category)
      .where('fiscal_id', 'in', from.length > 0 ? from : [''])
      .where('annulled', '=', 0)
      .execute();
    const locked = await lockLists(
      tx,
      deps.engine,
      eventId,
      category,
      holders.map((row) => row.exhibitor_id),
    );
    // Read after the locks, and only the locked lists: a merge that committed meanwhile is seen
    // (and this one finds nothing), and no save can change them before this commits. A list that
    // gained a merged id after the first read is left alone, as if that save came after the merge.
    const ballots = toBallots(await listVotes(tx, eventId, category, locked), category);
    const { touched } = mergeBallots(ballots, { category, from, into: input.into });
    if (touched.length === 0) throw nothingLeftToMerge();
    const changes: ListChange[] = touched.map(({ before, after }) => ({
      exhibitorId: before.exhibitorId,
      before: before.entries.map((entry) => entry.vote),
      after: storedVotes(after, now),
    }));
    await bumpVersions(
      tx,
      eventId,
      category,
      changes.map((change) => change.exhibitorId),
      now,
    );
    for (const change of changes) {
      await writeList(tx, eventId, category, change.exhibitorId, change.after);
    }
    const details: MergeDetails = { category, into: input.into, from, lists: changes };
    const auditId = await recordAudit(tx, admin, now, {
      action: MERGE_ACTION,
      entityType: 'nominee',
      entityId: `${category}/${input.into}`,
      eventId,
      details,
    });
    await tellExhibitors(tx, deps, now, admin, eventId, details, false);
    return { auditId, lists: changes.length };
  });
}

/** Equal on every stored field, `updated_at` included: any write since counts as a change. */
const sameVotes = (a: readonly StoredVote[], b: readonly StoredVote[]) =>
  a.length === b.length &&
  a.every((vote, index) => {
    const other = b[index];
    return other !== undefined && JSON.stringify(stored(vote)) === JSON.stringify(stored(other));
  });

/**
 * Restores every list a merge touched as it was before, provided each is still exactly as the
 * merge left it; any later change (an exhibitor's save, a correction, another merge, an undo)
 * refuses the whole undo with 409, so nothing done since is lost.
 */
export async function undoMerge(
  deps: AppDeps,
  { admin, eventId, auditId }: { admin: Admin; eventId: string; auditId: number },
): Promise<{ auditId: number; lists: number }> {
  const now = deps.clock.now();
  return deps.transact(async (tx) => {
    const entry = await tx
      .selectFrom('audit_log')
      .select(['details'])
      .where('id', '=', auditId)
      .where('event_id', '=', eventId)
      .where('action', '=', MERGE_ACTION)
      .executeTakeFirst();
    const details = entry && readAuditDetails(AUDIT_ACTIONS[MERGE_ACTION].details, entry.details);
    if (!details) throw notFound(MSG.undoNotMerge);
    if ((await undoneMerges(tx, eventId, [auditId])).has(auditId)) {
      throw new AppError('undo_stale', { message: MSG.undoAlreadyDone });
    }
    const exhibitorIds = details.lists.map((list) => list.exhibitorId);
    await lockLists(tx, deps.engine, eventId, details.category, exhibitorIds);
    // A list annulled since the merge was changed since: the undo would rewrite it behind the
    // annulment, so it is refused like any other change.
    if (await anyAnnulled(tx, eventId, details.category, exhibitorIds)) {
      throw new AppError('undo_stale', { message: MSG.undoStale });
    }
    // Read after the locks: what is compared is what is replaced.
    const current = await listVotes(tx, eventId, details.category, exhibitorIds);
    for (const list of details.lists) {
      const rows = current.filter((row) => row.exhibitor_id === list.exhibitorId).map(stored);
      if (!sameVotes(rows, list.after)) {
        throw new AppError('undo_stale', { message: MSG.undoStale });
      }
    }
    await bumpVersions(tx, eventId, details.category, exhibitorIds, now);
    for (const list of details.lists) {
      await writeList(tx, eventId, details.category, list.exhibitorId, list.before);
    }
    await recordAudit(tx, admin, now, {
      action: UNDO_MERGE_ACTION,
      entityType: 'nominee',
      entityId: `${details.category}/${details.into}`,
      eventId,
      details: {
        ...details,
        undoOf: auditId,
        lists: details.lists.map((list) => ({ ...list, before: list.after, after: list.before })),
      },
    });
    await tellExhibitors(tx, deps, now, admin, eventId, details, true);
    return { auditId, lists: details.lists.length };
  });
}

/**
 * Every exhibitor whose list a merge (or its undo) rewrote is told, one message each however many
 * lists the merge touched (mail/list-changes.ts); the reason names the resellers as their lists did.
 */
async function tellExhibitors(
  tx: Tx,
  deps: Pick<AppDeps, 'engine'>,
  now: Date,
  admin: Admin,
  eventId: string,
  details: MergeDetails,
  undone: boolean,
): Promise<void> {
  // Named as the lists held them before the merge: after it, a merged row keeps its own name.
  const names = new Map<string, string>();
  for (const vote of details.lists.flatMap((list) => list.before)) {
    if (!names.has(vote.fiscal_id)) names.set(vote.fiscal_id, vote.name);
  }
  // A target no rewritten list held: named as the ranking names it, by its earliest nomination in
  // a list the merge left alone.
  if (!names.has(details.into)) {
    const rewritten = details.lists.map((list) => list.exhibitorId);
    const earliest = await tx
      .selectFrom('nominations')
      .select('name')
      .where('event_id', '=', eventId)
      .where('category', '=', details.category)
      .where('fiscal_id', '=', details.into)
      .$if(rewritten.length > 0, (query) => query.where('exhibitor_id', 'not in', rewritten))
      .orderBy('nominated_at')
      .orderBy('exhibitor_id')
      .limit(1)
      .executeTakeFirst();
    if (earliest) names.set(details.into, earliest.name);
  }
  // A registry entry merged into before it had votes: named as the registry has it.
  if (!names.has(details.into)) {
    const entry = await tx
      .selectFrom('resellers')
      .select('name')
      .where('fiscal_id', '=', details.into)
      .executeTakeFirst();
    if (entry) names.set(details.into, entry.name);
  }
  const named = (fiscalId: string) => {
    const name = names.get(fiscalId);
    return name === undefined ? `ID fiscal ${fiscalId}` : `${name} (${fiscalId})`;
  };
  const from = details.from.map(named).join(', ');
  const reason = undone
    ? `Unificación deshecha: ${named(details.into)} vuelve a ser ${from}`
    : `Nominados unificados por ser el mismo reseller: ${from} → ${named(details.into)}`;
  await recordListChanges(
    tx,
    { engine: deps.engine, now },
    details.lists.map((list) => ({
      eventId,
      exhibitorId: list.exhibitorId,
      category: details.category,
      before: undone ? list.after : list.before,
      after: undone ? list.before : list.after,
      adminId: admin.adminId,
      reason,
    })),
  );
}
