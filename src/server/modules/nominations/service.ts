import { sql } from 'kysely';
import {
  RECEIPT_QUIET_MINUTES,
  SESSION_IDLE_HOURS,
  type CategoryAddress,
} from '../../../shared/constants.ts';
import { formatDisplayInstant } from '../../../shared/dates.ts';
import { MSG } from '../../../shared/messages.ts';
import type { Nominee, NomineeView } from '../../../shared/schemas/nominee.ts';
import type { NominableResellers } from '../../../shared/registry.ts';
import {
  CONFIGURABLE_NOMINEE_FIELDS,
  readNomineeFieldSettings,
  type NomineeFieldSettings,
} from '../../../shared/nominee-fields.ts';
import type {
  ExhEventResponse,
  ExhEventSummary,
  MoveDirection,
  NominationList,
} from '../../../shared/schemas/nominations.ts';
import { engineOf, type Db } from '../../db/connection.ts';
import { prepared } from '../../db/prepared.ts';
import type { Nomination } from '../../db/schema.ts';
import type { Tx } from '../../db/transact.ts';
import type { AppDeps } from '../../deps.ts';
import { SESSION_NOT_SETTLED } from '../../http/route.ts';
import { TOUCH_INTERVAL_MS } from '../../http/session.ts';
import { ARCHIVE_LOCK_CLASS } from '../../lib/archived.ts';
import { recordAudit } from '../../lib/audit.ts';
import { recordDeviceSignIn, type Device } from '../../lib/device-sign-ins.ts';
import { latestListChange } from '../../mail/list-changes.ts';
import { checkRegistryRules, type RegistryRules } from '../../lib/registry-rules.ts';
import { hashToken, newId } from '../../lib/crypto.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { getEventOr404 } from '../../lib/guards.ts';
import {
  checkNomineeFields,
  nomineeColumns,
  storeNomineeFields,
  toNominee,
  toNomineeView,
  type ListKey,
  type NomineeColumns,
} from '../../lib/nominee-rows.ts';
import { addHours, iso } from '../../lib/time.ts';
import { calendarOf, hasVotingEnded, isDraft, isVotingOpenNow } from '../../lib/event-calendar.ts';
import { debounceMail } from '../../mail/outbox.ts';
import { annulledListError, refuseAnnulledList } from '../../lib/annulled-lists.ts';
import {
  findEventCategoryOr404,
  CATEGORY_SHAPE_LOCK_CLASS,
  lockCategoryShape,
  readEventCategories,
  toCategoryView,
} from '../../lib/event-categories.ts';

const whereList = (key: ListKey) =>
  ({ event_id: key.eventId, exhibitor_id: key.exhibitorId, category: key.category }) as const;

const selectList = prepared<ListKey, Nomination>((db, arg) =>
  db
    .selectFrom('nominations')
    .selectAll()
    .where('event_id', '=', arg('eventId'))
    .where('exhibitor_id', '=', arg('exhibitorId'))
    .where('category', '=', arg('category'))
    .orderBy('list_order'),
);

async function readList(db: Db, key: ListKey): Promise<Nomination[]> {
  return (await selectList(db, key)).rows;
}

const summary = (row: {
  id: string;
  name: string;
  event_date: string;
  vote_deadline: string;
}): ExhEventSummary => ({
  id: row.id,
  name: row.name,
  eventDate: row.event_date,
  voteDeadline: row.vote_deadline,
});

/**
 * The event, if this exhibitor is invited to it. Anything else (another exhibitor's event, a
 * missing event) is the same 404, so an exhibitor cannot learn which event ids exist.
 */
const selectMemberEvent = prepared<
  { exhibitorId: string; eventId: string; sessionId: string },
  {
    id: string;
    name: string;
    event_date: string;
    vote_deadline: string;
    voting_closed_at: string | null;
    nominee_fields: string;
    nominable_resellers: NominableResellers;
    logo_etag: string | null;
    /** The exhibitor's latest sign-in, and the latest one in which this event was opened. */
    signed_in_at: string | null;
    member_signed_in_at: string | null;
    close_time: string;
    time_zone: string | null;
    voting_opens_at: string | null;
    /** Set once this session's opening of the event is recorded (device_sign_ins). */
    device_recorded_at: string | null;
  }
>((db, arg) =>
  db
    .selectFrom('events')
    .innerJoin('event_exhibitors', 'event_exhibitors.event_id', 'events.id')
    .innerJoin('exhibitors', 'exhibitors.id', 'event_exhibitors.exhibitor_id')
    .leftJoin('device_sign_ins', (join) =>
      join
        .onRef('device_sign_ins.event_id', '=', 'events.id')
        .on('device_sign_ins.session_id', '=', arg('sessionId')),
    )
    .select([
      'events.id',
      'events.name',
      'events.event_date',
      'events.vote_deadline',
      'events.voting_closed_at',
      'events.nominee_fields',
      'events.nominable_resellers',
      'events.logo_etag',
      'exhibitors.last_signed_in_at as signed_in_at',
      'event_exhibitors.last_signed_in_at as member_signed_in_at',
      'events.close_time',
      'events.time_zone',
      'events.voting_opens_at',
      'device_sign_ins.signed_in_at as device_recorded_at',
    ])
    .where('events.id', '=', arg('eventId'))
    .where('event_exhibitors.exhibitor_id', '=', arg('exhibitorId'))
    // Not yet invited (added without an invitation): as if not a member.
    .where('event_exhibitors.invited_at', 'is not', null)
    // An archived event is hidden from its exhibitors.
    .where('events.archived_at', 'is', null),
);

/** The exhibitor's event, 404 as for any other event while it is missing, not theirs or a draft. */
async function findMemberEvent(deps: AppDeps, { exhibitorId, eventId, sessionId }: EventOpening) {
  const event = (await selectMemberEvent(deps.db, { exhibitorId, eventId, sessionId })).rows[0];
  if (!event || isDraft(calendarOf(event, deps.config.timeZone), deps.clock.now())) {
    throw notFound(MSG.eventNotFound);
  }
  return event;
}

export async function listExhibitorEvents(
  deps: AppDeps,
  { exhibitorId }: { exhibitorId: string },
): Promise<ExhEventSummary[]> {
  const rows = await deps.db
    .selectFrom('events')
    .innerJoin('event_exhibitors', 'event_exhibitors.event_id', 'events.id')
    .select(['events.id', 'events.name', 'events.event_date', 'events.vote_deadline'])
    .where('event_exhibitors.exhibitor_id', '=', exhibitorId)
    .where('event_exhibitors.invited_at', 'is not', null)
    .where('events.archived_at', 'is', null)
    // A draft stays hidden until its opening.
    .where((eb) =>
      eb.or([
        eb('events.voting_opens_at', 'is', null),
        eb('events.voting_opens_at', '<=', iso(deps.clock.now())),
      ]),
    )
    .orderBy('events.event_date')
    .orderBy('events.name')
    .execute();
  return rows.map(summary);
}

type Nullable<Row> = { [Column in keyof Row]: Row[Column] | null };

/** A row of a list left-joined to its nominations that holds a nominee (all of its columns do). */
function hasNominee<Row extends Nullable<NomineeColumns & Pick<Nomination, 'list_order'>>>(
  row: Row,
): row is Row & NomineeColumns & Pick<Nomination, 'list_order'> {
  return row.list_order !== null;
}

/**
 * "Ingresaron" and "Último ingreso" of this event's participation: the sign-in during which the
 * exhibitor opened it. A sign-in is to the account, not to an event, so opening the event is what
 * ties the two; it writes once per sign-in (reads after that find the stamp current) and two tabs
 * at once write the same value.
 */
async function stampEventSignIn(
  db: Db,
  exhibitorId: string,
  event: { id: string; signed_in_at: string | null; member_signed_in_at: string | null },
): Promise<void> {
  const signedInAt = event.signed_in_at;
  if (signedInAt === null || event.member_signed_in_at === signedInAt) return;
  await db
    .updateTable('event_exhibitors')
    .set({ last_signed_in_at: signedInAt })
    .where('event_id', '=', event.id)
    .where('exhibitor_id', '=', exhibitorId)
    .where((eb) =>
      eb.or([eb('last_signed_in_at', 'is', null), eb('last_signed_in_at', '<', signedInAt)]),
    )
    .execute();
}

/** An exhibitor's session opening one of their events, from a browser. */
export interface EventOpening {
  exhibitorId: string;
  eventId: string;
  sessionId: string;
  device: Device;
}

export async function getExhibitorEvent(
  deps: AppDeps,
  opening: EventOpening,
): Promise<ExhEventResponse> {
  const { exhibitorId, eventId } = opening;
  const event = await findMemberEvent(deps, opening);
  await stampEventSignIn(deps.db, exhibitorId, event);
  // "Mismo dispositivo": the browser of this session's first opening, written once per session.
  if (event.device_recorded_at === null) {
    await recordDeviceSignIn(deps.db, { ...opening, at: deps.clock.now() });
  }
  const calendar = calendarOf(event, deps.config.timeZone);
  // One statement, hence one snapshot: each list's version always matches the rows shown with it
  // (two separate reads could pair a version with rows of another write on PostgreSQL).
  const rows = await deps.db
    .selectFrom('nomination_lists as list')
    .leftJoin('nominations', (join) =>
      join
        .onRef('nominations.event_id', '=', 'list.event_id')
        .onRef('nominations.exhibitor_id', '=', 'list.exhibitor_id')
        .onRef('nominations.category', '=', 'list.category'),
    )
    .select([
      'list.category as list_category',
      'list.version as list_version',
      'list.updated_at as list_updated_at',
      'list.annulled_reason as list_annulled_reason',
      'nominations.list_order',
      'nominations.fiscal_id',
      'nominations.name',
      'nominations.registered_name',
      'nominations.contact_name',
      'nominations.contact_position',
      'nominations.phone',
      'nominations.email',
      'nominations.location',
      'nominations.city',
    ])
    .where('list.event_id', '=', eventId)
    .where('list.exhibitor_id', '=', exhibitorId)
    .orderBy('nominations.list_order')
    .execute();
  const organizationChange = await latestListChange(deps.db, eventId, exhibitorId);
  const categories = await readEventCategories(deps.db, eventId);
  const list = (category: CategoryAddress): NominationList => {
    const own = rows.filter((row) => row.list_category === category);
    const annulledReason = own[0]?.list_annulled_reason;
    return {
      category,
      version: Number(own[0]?.list_version ?? 0),
      savedAt: own[0]?.list_updated_at ?? null,
      nominees: own.filter(hasNominee).map(toNomineeView),
      ...(annulledReason != null ? { annulledReason } : {}),
    };
  };
  // The two default addresses always answer (older clients read them); every category's list too.
  const lists = {
    consumption: list('consumption'),
    value: list('value'),
    ...Object.fromEntries(categories.map(({ address }) => [address, list(address)])),
  };
  const instants = [
    ...Object.values(lists).map(({ savedAt }) => savedAt),
    organizationChange?.at ?? null,
  ].filter((instant) => instant !== null);
  return {
    ...summary(event),
    votingOpen: isVotingOpenNow(calendar, deps.clock.now()),
    timeZone: calendar.timeZone,
    closeTime: calendar.closeTime,
    nomineeFields: readNomineeFieldSettings(event.nominee_fields),
    nominableResellers: event.nominable_resellers,
    lists,
    categories: categories.map(toCategoryView),
    ...(organizationChange ? { organizationChange } : {}),
    instantTexts: Object.fromEntries(
      instants.map((instant) => [instant, formatDisplayInstant(instant, calendar.timeZone)]),
    ),
  };
}

/**
 * "Vista previa": the exhibitor's screen of the event as any invited exhibitor would get it before
 * saving anything (empty lists), for an administrator; a draft as it will be at its opening.
 */
export async function previewExhibitorEvent(
  deps: AppDeps,
  { eventId }: { eventId: string },
): Promise<ExhEventResponse> {
  const event = await getEventOr404(deps.db, eventId);
  const calendar = calendarOf(event, deps.config.timeZone);
  const categories = await readEventCategories(deps.db, eventId);
  const empty = (category: CategoryAddress): NominationList => ({
    category,
    version: 0,
    savedAt: null,
    nominees: [],
  });
  return {
    ...summary(event),
    // A draft shows the screen its exhibitors will get at the opening.
    votingOpen: event.archived_at === null && !hasVotingEnded(calendar, deps.clock.now()),
    timeZone: calendar.timeZone,
    closeTime: calendar.closeTime,
    nomineeFields: readNomineeFieldSettings(event.nominee_fields),
    nominableResellers: event.nominable_resellers,
    lists: {
      consumption: empty('consumption'),
      value: empty('value'),
      ...Object.fromEntries(categories.map(({ address }) => [address, empty(address)])),
    },
    categories: categories.map(toCategoryView),
    // Empty lists and no change by the organisation: no instant to show.
    instantTexts: {},
  };
}

/**
 * Claims the list for one write: moves its version from `expected` to `expected + 1`, or refuses
 * with 409 `stale_list` when another write got there first. Runs inside the write's transaction,
 * so the claim holds the list's row lock (PostgreSQL) or the write lock (SQLite) until commit:
 * concurrent writes to the same list are serialised, and every one but the first sees a newer
 * version and is refused.
 */
async function claimListVersion(tx: Tx, key: ListKey, expected: number, now: Date): Promise<void> {
  const updatedAt = iso(now);
  // The list row is created lazily by its first write. The insert selects from the membership
  // row, so an exhibitor removed from the event meanwhile creates nothing.
  if (expected === 0) await createList(tx, { ...key, updatedAt });
  const claimed = await claimList(tx, { ...key, expected, updatedAt });
  if (claimed.numAffectedRows !== 1n) {
    // An annulled list is refused with the organisation's reason, whatever version was read.
    await refuseAnnulledList(tx, key, 'exh');
    throw new AppError('stale_list');
  }
}

const createList = prepared<ListKey & { updatedAt: string }>((db, arg) =>
  db
    .insertInto('nomination_lists')
    .columns(['event_id', 'exhibitor_id', 'category', 'version', 'updated_at'])
    .expression(
      db
        .selectFrom('event_exhibitors')
        .select([
          'event_id',
          'exhibitor_id',
          sql<CategoryAddress>`cast(${arg('category')} as text)`.as('category'),
          sql<number>`0`.as('version'),
          sql<string>`cast(${arg('updatedAt')} as text)`.as('updated_at'),
        ])
        .where('event_id', '=', arg('eventId'))
        .where('exhibitor_id', '=', arg('exhibitorId')),
    )
    .onConflict((oc) => oc.columns(['event_id', 'exhibitor_id', 'category']).doNothing()),
);

const claimList = prepared<ListKey & { expected: number; updatedAt: string }>((db, arg) =>
  db
    .updateTable('nomination_lists')
    .set({ version: sql<number>`version + 1`, updated_at: arg('updatedAt') })
    .where('event_id', '=', arg('eventId'))
    .where('exhibitor_id', '=', arg('exhibitorId'))
    .where('category', '=', arg('category'))
    .where('version', '=', arg('expected'))
    // An annulled list cannot be changed (migration 0024); waits for an annulment in progress.
    .where('annulled_at', 'is', null),
);

/**
 * `fields`: which nominee fields the event asks for, as stored when the save began; `rules`: its
 * "Resellers nominables" and "Validar CUIT".
 */
type ListChange = (
  tx: Tx,
  current: Nomination[],
  now: Date,
  fields: NomineeFieldSettings,
  rules: RegistryRules,
  /** The category's "Nominaciones por expositor". */
  nomineeLimit: number,
) => Promise<Nomination[]>;

/** The audit actions of an exhibitor's own saves. */
export type NominationAction =
  'nomination.add' | 'nomination.edit' | 'nomination.remove' | 'nomination.move';

/** An entry of a list as its audit entry keeps it: enough to say what changed, before → after. */
const listEntry = (row: Nomination) => ({ order: row.list_order, ...toNominee(row) });

/**
 * What a save checks first, in one statement: the event (not archived, voting open), the exhibitor's
 * membership and their address (for the receipt). It also takes the membership row for the rest of
 * the save on PostgreSQL: the two lists are different rows, so saves to both could otherwise run at
 * once and both queue a receipt; this lock serialises one exhibitor's saves, and the second sees
 * the receipt the first queued. It is taken before the list, in the order removing the exhibitor
 * takes them (membership, then its lists by cascade), so the two never wait on each other. `FOR NO
 * KEY UPDATE` does not conflict with the key-share lock that creating a list takes on the same row.
 * SQLite has one writer: the transaction already holds the database.
 */
const selectSaveTarget = prepared<
  ListKey,
  {
    vote_deadline: string;
    voting_closed_at: string | null;
    close_time: string;
    time_zone: string | null;
    voting_opens_at: string | null;
    archived_at: string | null;
    nominee_fields: string;
    nominable_resellers: string;
    validate_cuit: number;
    email: string;
  }
>((db, arg) => {
  const target = db
    .selectFrom('events as e')
    .innerJoin('event_exhibitors as m', 'm.event_id', 'e.id')
    .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
    .select([
      'e.vote_deadline',
      'e.voting_closed_at',
      'e.close_time',
      'e.time_zone',
      'e.voting_opens_at',
      'e.archived_at',
      'e.nominee_fields',
      'e.nominable_resellers',
      'e.validate_cuit',
      'x.email',
    ])
    .where('e.id', '=', arg('eventId'))
    .where('m.exhibitor_id', '=', arg('exhibitorId'))
    .where('m.invited_at', 'is not', null);
  return engineOf(db) === 'postgres' ? target.forNoKeyUpdate('m') : target;
});

/**
 * Refuses the save unless its exhibitor is in the event and invited (404, as for any event not theirs, also
 * when removed since it was read), the event is not archived (409 "El evento está archivado";
 * checked here under the event's archive lock, which the route's transaction takes) and voting is
 * open (409 `voting_closed`). Answers the exhibitor's address and the nominee fields the event
 * asks for.
 */
async function checkSaveTarget(
  deps: Pick<AppDeps, 'config'>,
  tx: Tx,
  key: ListKey,
  now: Date,
): Promise<{
  email: string;
  fields: NomineeFieldSettings;
  rules: RegistryRules;
  nomineeLimit: number;
}> {
  const target = (await selectSaveTarget(tx, key)).rows[0];
  const calendar = target && calendarOf(target, deps.config.timeZone);
  // A draft is hidden from its exhibitors: the same 404 as an event that is not theirs.
  if (!target || !calendar || isDraft(calendar, now)) throw notFound(MSG.eventNotFound);
  // The category's shape lock, shared on PostgreSQL until commit: a change of its limit or scoring
  // (which takes it exclusively) waits for this save, or this save sees the change.
  await lockCategoryShape(tx, key.eventId, key.category, 'shared');
  const category = await findEventCategoryOr404(tx, key.eventId, key.category);
  if (target.archived_at !== null) throw new AppError('event_archived');
  if (!isVotingOpenNow(calendar, now)) throw new AppError('voting_closed');
  return {
    email: target.email,
    fields: readNomineeFieldSettings(target.nominee_fields),
    rules: {
      nominable_resellers: target.nominable_resellers as RegistryRules['nominable_resellers'],
      validate_cuit: Number(target.validate_cuit),
    },
    nomineeLimit: Number(category.nominee_limit),
  };
}

/**
 * The receipt of this save: due once the exhibitor's lists have rested for RECEIPT_QUIET_MINUTES,
 * so a burst of saves is followed by one message with the lists as last saved.
 */
async function queueReceipt(tx: Tx, key: ListKey, email: string, now: Date): Promise<void> {
  await debounceMail(tx, now, {
    template: 'nomination-receipt',
    to: email,
    params: { eventId: key.eventId, exhibitorId: key.exhibitorId },
    sendAt: new Date(now.getTime() + RECEIPT_QUIET_MINUTES * 60_000),
    eventId: key.eventId,
    exhibitorId: key.exhibitorId,
  });
}

/**
 * One exhibitor write, in one transaction: membership, archive and deadline with the membership
 * lock (404 / 409), the version claim, the current list, and `change`, which writes the rows and
 * returns the list as stored, then the audit entry and the receipt. Six statements for an added
 * nominee (eight on a list's first save).
 */
async function changeExhibitorList(
  deps: AppDeps,
  key: ListKey,
  expectedVersion: number,
  action: NominationAction,
  change: ListChange,
): Promise<NominationList> {
  const saved = await deps.transact(async (tx) => {
    const now = deps.clock.now();
    const { email, fields, rules, nomineeLimit } = await checkSaveTarget(deps, tx, key, now);
    await claimListVersion(tx, key, expectedVersion, now);
    const before = await readList(tx, key);
    const after = await change(tx, before, now, fields, rules, nomineeLimit);
    // The event's history shows every change to the votes, the exhibitors' own included.
    await recordAudit(tx, { role: 'exh', exhibitorId: key.exhibitorId }, now, {
      action,
      entityType: 'nomination_list',
      entityId: `${key.exhibitorId}/${key.category}`,
      eventId: key.eventId,
      details: {
        exhibitorId: key.exhibitorId,
        category: key.category,
        before: before.map(listEntry),
        after: after.map(listEntry),
      },
    });
    await queueReceipt(tx, key, email, now);
    return { after, savedAt: iso(now) };
  });
  return {
    category: key.category,
    version: expectedVersion + 1,
    savedAt: saved.savedAt,
    nominees: saved.after.map(toNomineeView),
  };
}

function findEntry(current: Nomination[], fiscalId: string): Nomination {
  const entry = current.find((row) => row.fiscal_id === fiscalId);
  if (!entry) throw notFound();
  return entry;
}

/**
 * Puts `rows` at positions `from`..`to`. list_order is part of the primary key (and a unique
 * constraint is checked row by row), so renumbered rows are deleted and inserted again, keeping
 * their nominated_at, rather than updated in place.
 */
async function rewritePositions(
  tx: Tx,
  key: ListKey,
  from: number,
  to: number,
  rows: Nomination[],
): Promise<Nomination[]> {
  await tx
    .deleteFrom('nominations')
    .where('event_id', '=', key.eventId)
    .where('exhibitor_id', '=', key.exhibitorId)
    .where('category', '=', key.category)
    .where('list_order', '>=', from)
    .where('list_order', '<=', to)
    .execute();
  const renumbered = rows.map((row, index) => ({ ...row, list_order: from + index }));
  if (renumbered.length > 0) await tx.insertInto('nominations').values(renumbered).execute();
  return renumbered;
}

const insertNomination = prepared<Nomination>((db, arg) =>
  db.insertInto('nominations').values({
    event_id: arg('event_id'),
    exhibitor_id: arg('exhibitor_id'),
    category: arg('category'),
    list_order: arg('list_order'),
    fiscal_id: arg('fiscal_id'),
    name: arg('name'),
    registered_name: arg('registered_name'),
    contact_name: arg('contact_name'),
    contact_position: arg('contact_position'),
    phone: arg('phone'),
    email: arg('email'),
    location: arg('location'),
    city: arg('city'),
    nominated_at: arg('nominated_at'),
    updated_at: arg('updated_at'),
  }),
);

const duplicateFiscalId = () =>
  new AppError('duplicate_fiscal_id', { fields: { fiscalId: MSG.duplicateFiscalId } });

/** An exhibitor's save to one of their lists, based on the list's version they read. */
export interface ListSave {
  list: ListKey;
  expectedVersion: number;
}

/** A save to one entry of the list, named by its fiscal id. */
export interface EntrySave extends ListSave {
  fiscalId: string;
}

export async function addNominee(
  deps: AppDeps,
  { list: key, values, expectedVersion }: ListSave & { values: Nominee },
): Promise<NominationList> {
  return changeExhibitorList(
    deps,
    key,
    expectedVersion,
    'nomination.add',
    async (tx, current, now, fields, rules, nomineeLimit) => {
      const asked = checkNomineeFields(values, fields);
      await checkRegistryRules(tx, rules, values.fiscalId);
      if (current.some((row) => row.fiscal_id === values.fiscalId)) throw duplicateFiscalId();
      if (current.length >= nomineeLimit) {
        throw new AppError('nomination_limit');
      }
      const row: Nomination = {
        ...whereList(key),
        ...nomineeColumns(asked),
        list_order: current.length + 1,
        nominated_at: iso(now),
        updated_at: iso(now),
        annulled: 0,
      };
      await insertNomination(tx, row);
      return [...current, row];
    },
  );
}

export async function editNominee(
  deps: AppDeps,
  { list: key, fiscalId, values, expectedVersion }: EntrySave & { values: Nominee },
): Promise<NominationList> {
  // The exhibitor's form shows the fiscal id read-only; a different one is a crafted request.
  if (values.fiscalId !== fiscalId) {
    throw badRequest(MSG.fiscalIdReadOnly, 'fiscalId');
  }
  return changeExhibitorList(
    deps,
    key,
    expectedVersion,
    'nomination.edit',
    async (tx, current, now, fields, rules) => {
      const entry = findEntry(current, fiscalId);
      const asked = checkNomineeFields(values, fields, toNominee(entry));
      await checkRegistryRules(tx, rules, values.fiscalId);
      await storeNomineeFields(tx, key, entry.list_order, asked, now);
      const edited: Nomination = { ...entry, ...nomineeColumns(asked), updated_at: iso(now) };
      return current.map((row) => (row === entry ? edited : row));
    },
  );
}

export async function removeNominee(
  deps: AppDeps,
  { list: key, fiscalId, expectedVersion }: EntrySave,
): Promise<NominationList> {
  return changeExhibitorList(
    deps,
    key,
    expectedVersion,
    'nomination.remove',
    async (tx, current) => {
      const entry = findEntry(current, fiscalId);
      const position = current.indexOf(entry);
      const tail = current.slice(position + 1);
      const renumbered = await rewritePositions(tx, key, position + 1, current.length, tail);
      return [...current.slice(0, position), ...renumbered];
    },
  );
}

export async function moveNominee(
  deps: AppDeps,
  { list: key, fiscalId, direction, expectedVersion }: EntrySave & { direction: MoveDirection },
): Promise<NominationList> {
  return changeExhibitorList(deps, key, expectedVersion, 'nomination.move', async (tx, current) => {
    const position = current.indexOf(findEntry(current, fiscalId));
    const upper = direction === 'up' ? position - 1 : position;
    const lower = upper + 1;
    const first = current[upper];
    const second = current[lower];
    if (upper < 0 || !first || !second) throw badRequest();
    const swapped = await rewritePositions(tx, key, upper + 1, lower + 1, [second, first]);
    return [...current.slice(0, upper), ...swapped, ...current.slice(lower + 1)];
  });
}

/** One exhibitor write as PostgreSQL's one statement takes it (premios_save_nominee, 0028). */
export type OneStatementSave =
  | { action: 'add'; values: Nominee }
  | { action: 'edit'; fiscalId: string; values: Nominee }
  | { action: 'remove'; fiscalId: string }
  | { action: 'move'; fiscalId: string; direction: MoveDirection };

const auditActionOf = {
  add: 'nomination.add',
  edit: 'nomination.edit',
  remove: 'nomination.remove',
  move: 'nomination.move',
} as const satisfies Record<OneStatementSave['action'], NominationAction>;

/** What premios_save_nominee answers: a list as saved, a refusal, or a session it left alone. */
type OneStatementOutcome =
  | { outcome: 'saved'; after: NomineeView[]; queued: boolean }
  | { outcome: 'list_annulled'; reason: string }
  | {
      outcome:
        | 'session'
        | 'ordinary'
        | 'not_found'
        | 'category_not_found'
        | 'event_archived'
        | 'voting_closed'
        | 'stale_list'
        | 'duplicate_fiscal_id'
        | 'nomination_limit'
        | 'entry_not_found'
        | 'bad_move';
    };

/** The same refusals as the ordinary path's, by the statement's outcome. */
const refusals = {
  not_found: () => notFound(MSG.eventNotFound),
  // An address the event does not have: the same 404 as any path naming nothing.
  category_not_found: () => notFound(),
  event_archived: () => new AppError('event_archived'),
  voting_closed: () => new AppError('voting_closed'),
  stale_list: () => new AppError('stale_list'),
  duplicate_fiscal_id: duplicateFiscalId,
  nomination_limit: () => new AppError('nomination_limit'),
  entry_not_found: () => notFound(),
  bad_move: () => badRequest(),
} as const;

const callSaveNominee = prepared<
  {
    tokenHash: string;
    now: string;
    idleCutoff: string;
    touchCutoff: string;
    eventId: string;
    category: CategoryAddress;
    appTimeZone: string;
    action: OneStatementSave['action'];
    fiscalId: string;
    nominee: string | null;
    direction: MoveDirection | null;
    expected: number;
    auditAction: NominationAction;
    receiptAt: string;
    receiptId: string;
  },
  { saved: OneStatementOutcome }
>((db, arg) => {
  const call = sql<{ saved: OneStatementOutcome }>`select premios_save_nominee(
    ${arg('tokenHash')}, ${arg('now')}, ${arg('idleCutoff')}, ${arg('touchCutoff')},
    ${arg('eventId')}, ${arg('category')}, ${arg('appTimeZone')}, ${arg('action')}, ${arg('fiscalId')},
    cast(${arg('nominee')} as json), ${arg('direction')}, cast(${arg('expected')} as integer),
    ${ARCHIVE_LOCK_CLASS}, ${CATEGORY_SHAPE_LOCK_CLASS}, ${arg('auditAction')},
    ${'nomination-receipt'}, ${arg('receiptAt')}, ${arg('receiptId')}) as saved`;
  return { compile: () => call.compile(db) };
});

/** The session's token stands for the exhibitor: the statement finds who it is. */
export interface OneStatementSaveInput {
  sessionToken: string;
  list: { eventId: string; category: CategoryAddress };
  save: OneStatementSave;
  expectedVersion: number;
}

/**
 * PostgreSQL: an exhibitor's save, session included, as one statement (one round trip) that is its
 * own transaction, answered once it has committed: docs/decisions/0021. The same checks, locks,
 * refusals, audit entry and receipt as `changeExhibitorList`; SESSION_NOT_SETTLED when the session
 * is not one it settles, having changed nothing, for the ordinary path to answer.
 */
export async function saveInOneStatement(
  deps: AppDeps,
  { sessionToken, list, save, expectedVersion }: OneStatementSaveInput,
): Promise<NominationList | typeof SESSION_NOT_SETTLED> {
  const now = deps.clock.now();
  const values = 'values' in save ? save.values : null;
  // A crafted edit of the fiscal id: refused by the ordinary path, after its access check.
  if (save.action === 'edit' && save.values.fiscalId !== save.fiscalId) return SESSION_NOT_SETTLED;
  // A field left empty: whether the event asks for it is the ordinary path's rule (400 or saved).
  if (values && CONFIGURABLE_NOMINEE_FIELDS.some((field) => !values[field])) {
    return SESSION_NOT_SETTLED;
  }
  const { rows } = await callSaveNominee(deps.db, {
    tokenHash: hashToken(sessionToken),
    now: iso(now),
    idleCutoff: iso(addHours(now, -SESSION_IDLE_HOURS)),
    touchCutoff: iso(new Date(now.getTime() - TOUCH_INTERVAL_MS)),
    eventId: list.eventId,
    category: list.category,
    appTimeZone: deps.config.timeZone,
    action: save.action,
    fiscalId: 'fiscalId' in save ? save.fiscalId : (values as Nominee).fiscalId,
    nominee: values && JSON.stringify(nomineeColumns(values)),
    direction: save.action === 'move' ? save.direction : null,
    expected: expectedVersion,
    auditAction: auditActionOf[save.action],
    receiptAt: iso(new Date(now.getTime() + RECEIPT_QUIET_MINUTES * 60_000)),
    receiptId: newId(),
  });
  const saved = rows[0]?.saved;
  if (!saved) throw new Error('premios_save_nominee answered nothing');
  if (saved.outcome === 'session' || saved.outcome === 'ordinary') return SESSION_NOT_SETTLED;
  if (saved.outcome === 'list_annulled') throw annulledListError(saved.reason, 'exh');
  if (saved.outcome !== 'saved') throw refusals[saved.outcome]();
  if (saved.queued) deps.committed('mail-queued');
  return {
    category: list.category,
    version: expectedVersion + 1,
    savedAt: iso(now),
    nominees: saved.after,
  };
}
