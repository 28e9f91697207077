import { sql } from 'kysely';
import type { Category } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import type { Nominee, NomineeView } from '../../../shared/schemas/nominee.ts';
import type {
  ExhibitorVotesResponse,
  NomineeVote,
  RankingRow,
} from '../../../shared/schemas/results.ts';
import type { Db } from '../../db/connection.ts';
import type { Nomination } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import type { SessionUser } from '../../http/session.ts';
import { recordAudit } from '../../lib/audit.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { iso } from '../../lib/time.ts';

type NominationFields = Pick<
  Nomination,
  | 'fiscal_id'
  | 'name'
  | 'registered_name'
  | 'contact_name'
  | 'contact_position'
  | 'phone'
  | 'email'
  | 'location'
  | 'city'
>;

export function toNominee(row: NominationFields): Nominee {
  return {
    name: row.name,
    registeredName: row.registered_name,
    fiscalId: row.fiscal_id,
    contactName: row.contact_name,
    contactPosition: row.contact_position,
    phone: row.phone,
    email: row.email,
    location: row.location,
    city: row.city,
  };
}

export async function eventName(db: Db, eventId: string): Promise<string> {
  const event = await db
    .selectFrom('events')
    .select('name')
    .where('id', '=', eventId)
    .executeTakeFirst();
  if (!event) throw notFound(MSG.eventNotFound);
  return event.name;
}

interface RankingSqlRow extends NominationFields {
  position: number;
  points: number;
  nominations: number;
}

/**
 * The ranking of design.md section 5, computed by the database in one statement that reads each
 * nomination once: points and per-place counts per fiscal id, then the earliest nomination's row
 * found through the (event, exhibitor, category, fiscal id) unique index.
 *
 * `first_key` is the earliest nominated_at with its exhibitor id appended (ids are 36-character
 * UUIDs), so one min() both finds the earliest nomination and breaks a same-instant tie between two
 * exhibitors the same way on every run and on both engines. Within a shared position rows are
 * listed by fiscal id in numeric order (length first), which both engines sort alike.
 */
export async function categoryRanking(
  db: Db,
  eventId: string,
  category: Category,
): Promise<RankingRow[]> {
  const place = (order: number) =>
    sql`cast(sum(case when list_order = ${sql.lit(order)} then 1 else 0 end) as integer)`;
  const result = await sql<RankingSqlRow>`
    with totals as (
      select
        fiscal_id,
        cast(sum(6 - list_order) as integer) as points,
        ${place(1)} as p1,
        ${place(2)} as p2,
        ${place(3)} as p3,
        ${place(4)} as p4,
        ${place(5)} as p5,
        cast(count(*) as integer) as nominations,
        min(nominated_at || exhibitor_id) as first_key
      from nominations
      where event_id = ${eventId} and category = ${category}
      group by fiscal_id
    )
    select
      cast(rank() over (
        order by t.points desc, t.p1 desc, t.p2 desc, t.p3 desc, t.p4 desc, t.p5 desc,
          t.nominations desc, substr(t.first_key, 1, length(t.first_key) - 36) asc
      ) as integer) as position,
      t.points,
      t.nominations,
      n.fiscal_id,
      n.name,
      n.registered_name,
      n.contact_name,
      n.contact_position,
      n.phone,
      n.email,
      n.location,
      n.city
    from totals t
    join nominations n
      on n.event_id = ${eventId}
      and n.category = ${category}
      and n.exhibitor_id = substr(t.first_key, length(t.first_key) - 35)
      and n.fiscal_id = t.fiscal_id
    order by position, length(t.fiscal_id), t.fiscal_id
  `.execute(db);
  return result.rows.map((row) => ({
    ...toNominee(row),
    position: Number(row.position),
    points: Number(row.points),
    nominations: Number(row.nominations),
  }));
}

/** Every exhibitor's entry for one fiscal id in one category, earliest nomination first. */
export async function nomineeVotes(
  db: Db,
  eventId: string,
  category: Category,
  fiscalId: string,
): Promise<NomineeVote[]> {
  await eventName(db, eventId);
  const rows = await db
    .selectFrom('nominations as n')
    .innerJoin('exhibitors as e', 'e.id', 'n.exhibitor_id')
    .selectAll('n')
    .select('e.full_name as exhibitor_name')
    .where('n.event_id', '=', eventId)
    .where('n.category', '=', category)
    .where('n.fiscal_id', '=', fiscalId)
    .orderBy('n.nominated_at')
    .orderBy('n.exhibitor_id')
    .execute();
  return rows.map((row) => ({
    ...toNominee(row),
    order: row.list_order,
    exhibitorId: row.exhibitor_id,
    exhibitorName: row.exhibitor_name,
  }));
}

async function requireMember(db: Db, eventId: string, exhibitorId: string) {
  await eventName(db, eventId);
  const exhibitor = await db
    .selectFrom('event_exhibitors as m')
    .innerJoin('exhibitors as e', 'e.id', 'm.exhibitor_id')
    .select(['e.id', 'e.full_name', 'e.email'])
    .where('m.event_id', '=', eventId)
    .where('m.exhibitor_id', '=', exhibitorId)
    .executeTakeFirst();
  if (!exhibitor) throw notFound(MSG.exhibitorNotFound);
  return exhibitor;
}

/** Both lists of one exhibitor of the event, in list order. */
export async function exhibitorVotes(
  db: Db,
  eventId: string,
  exhibitorId: string,
): Promise<ExhibitorVotesResponse> {
  const exhibitor = await requireMember(db, eventId, exhibitorId);
  const rows = await db
    .selectFrom('nominations')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', exhibitorId)
    .orderBy('category')
    .orderBy('list_order')
    .execute();
  const list = (category: Category): NomineeView[] =>
    rows
      .filter((row) => row.category === category)
      .map((row) => ({ ...toNominee(row), order: row.list_order }));
  return {
    exhibitor: { id: exhibitor.id, fullName: exhibitor.full_name, email: exhibitor.email },
    consumption: list('consumption'),
    value: list('value'),
  };
}

export interface VoteRef {
  eventId: string;
  exhibitorId: string;
  category: Category;
  order: number;
}

/**
 * The administrator's correction of one entry of an exhibitor's list (allowed after the deadline):
 * same place and nomination instant, new data. The list's version moves on so that an exhibitor's
 * open screen sees the change instead of overwriting it.
 */
export async function editVote(
  deps: AppDeps,
  admin: Extract<SessionUser, { role: 'admin' }>,
  ref: VoteRef,
  input: Nominee,
): Promise<{ nominee: NomineeView; version: number }> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    await requireMember(trx, ref.eventId, ref.exhibitorId);
    // Bumping first takes the list's row lock on PostgreSQL, so writers to this list queue here.
    const list = await trx
      .updateTable('nomination_lists')
      .set((eb) => ({ version: eb('version', '+', 1), updated_at: iso(now) }))
      .where('event_id', '=', ref.eventId)
      .where('exhibitor_id', '=', ref.exhibitorId)
      .where('category', '=', ref.category)
      .returning('version')
      .executeTakeFirst();
    const entries = list
      ? await trx
          .selectFrom('nominations')
          .selectAll()
          .where('event_id', '=', ref.eventId)
          .where('exhibitor_id', '=', ref.exhibitorId)
          .where('category', '=', ref.category)
          .execute()
      : [];
    const before = entries.find((entry) => entry.list_order === ref.order);
    if (!list || !before) throw notFound();
    if (entries.some((e) => e.list_order !== ref.order && e.fiscal_id === input.fiscalId)) {
      throw conflict('duplicate_fiscal_id', MSG.adminDuplicateFiscalId, {
        fiscalId: MSG.adminDuplicateFiscalId,
      });
    }
    await trx
      .updateTable('nominations')
      .set({
        fiscal_id: input.fiscalId,
        name: input.name,
        registered_name: input.registeredName,
        contact_name: input.contactName,
        contact_position: input.contactPosition,
        phone: input.phone,
        email: input.email,
        location: input.location,
        city: input.city,
        updated_at: iso(now),
      })
      .where('event_id', '=', ref.eventId)
      .where('exhibitor_id', '=', ref.exhibitorId)
      .where('category', '=', ref.category)
      .where('list_order', '=', ref.order)
      .execute();
    await recordAudit(trx, admin, now, {
      action: 'vote.edit',
      entityType: 'nomination',
      entityId: `${ref.exhibitorId}/${ref.category}/${ref.order}`,
      eventId: ref.eventId,
      details: {
        exhibitorId: ref.exhibitorId,
        category: ref.category,
        order: ref.order,
        before: toNominee(before),
        after: input,
      },
    });
    return { nominee: { ...input, order: ref.order }, version: Number(list.version) };
  });
}
