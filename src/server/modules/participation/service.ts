import { sql, type ExpressionBuilder } from 'kysely';
import type {
  ParticipationResponse,
  ParticipationRow,
  ReminderAudience,
  ReminderPlan,
} from '../../../shared/schemas/participation.ts';
import { hasNoVotes } from '../../../shared/schemas/participation.ts';
import { MSG } from '../../../shared/messages.ts';
import { calendarOf, hasVotingEnded, isDraft } from '../../lib/event-calendar.ts';
import type { SignedInAdmin as Admin } from '../../../shared/signed-in.ts';
import type { Db } from '../../db/connection.ts';
import type { Database, EventCategory, EventExhibitorsTable } from '../../db/schema.ts';
import { readEventCategories, toCategoryView } from '../../lib/event-categories.ts';
import { memberField, toMemberView } from '../../lib/member-rows.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { getEventOr404, inEventTransaction } from '../../lib/guards.ts';
import { iso } from '../../lib/time.ts';
import { enqueueMail } from '../../mail/outbox.ts';

/** An exhibitor is reminded by hand at most once in this many hours. */
export const MANUAL_REMINDER_INTERVAL_HOURS = 12;

/** How many nominations each exhibitor of the event has in each category. */
async function nominationCounts(
  db: Db,
  eventId: string,
): Promise<Map<string, Map<string, number>>> {
  const rows = await db
    .selectFrom('nominations')
    .select(['exhibitor_id', 'category', sql<number>`cast(count(*) as integer)`.as('total')])
    .where('event_id', '=', eventId)
    .groupBy(['exhibitor_id', 'category'])
    .execute();
  const byExhibitor = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const own = byExhibitor.get(row.exhibitor_id) ?? new Map<string, number>();
    own.set(row.category, Number(row.total));
    byExhibitor.set(row.exhibitor_id, own);
  }
  return byExhibitor;
}

async function participationRows(
  db: Db,
  eventId: string,
  categories: readonly EventCategory[],
): Promise<ParticipationRow[]> {
  const counts = await nominationCounts(db, eventId);
  const rows = await db
    .selectFrom('event_exhibitors as m')
    .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
    .leftJoin('mail_outbox as o', 'o.id', 'm.invitation_message_id')
    .select([
      'x.id',
      memberField('full_name').as('full_name'),
      memberField('email').as('email'),
      memberField('company').as('company'),
      'm.last_signed_in_at',
      'o.status as invitation_status',
      'o.sent_at as invitation_sent_at',
      'o.last_error as invitation_error',
    ])
    .where('m.event_id', '=', eventId)
    .orderBy(sql`lower(${memberField('full_name')})`)
    .orderBy(memberField('email'))
    .execute();
  return rows.map((row) => {
    const member = toMemberView(row);
    const own = counts.get(row.id);
    const countIn = (address: string) =>
      categories.some((category) => category.address === address) ? (own?.get(address) ?? 0) : 0;
    return {
      ...member,
      invitation: {
        ...member.invitation,
        error: member.invitation.status === 'failed' ? row.invitation_error : null,
      },
      lastSignedInAt: row.last_signed_in_at,
      nominations: { consumption: countIn('consumption'), value: countIn('value') },
      categories: categories.map((category) => ({
        address: category.address,
        nominations: countIn(category.address),
        nomineeLimit: Number(category.nominee_limit),
      })),
    };
  });
}

/** An event, as the input of a service that reads one. */
export interface EventRef {
  eventId: string;
}

/** The participation tab: who was invited, whose invitation failed, who signed in, who voted. */
export async function participation(
  deps: AppDeps,
  { eventId }: EventRef,
): Promise<ParticipationResponse> {
  await getEventOr404(deps.db, eventId);
  const categories = await readEventCategories(deps.db, eventId);
  const exhibitors = await participationRows(deps.db, eventId, categories);
  const count = (test: (row: ParticipationRow) => boolean) => exhibitors.filter(test).length;
  const votedIn = (address: string) =>
    count((row) => row.categories.some((c) => c.address === address && c.nominations > 0));
  return {
    figures: {
      invited: exhibitors.length,
      invitationDelivered: count((row) => row.invitation.status === 'sent'),
      invitationFailed: count((row) => row.invitation.status === 'failed'),
      signedIn: count((row) => row.lastSignedInAt !== null),
      votedConsumption: votedIn('consumption'),
      votedValue: votedIn('value'),
      noVotes: count(hasNoVotes),
    },
    categories: categories.map((category) => ({
      ...toCategoryView(category),
      voted: votedIn(category.address),
    })),
    exhibitors,
  };
}

const reminderCutoff = (now: Date) =>
  iso(new Date(now.getTime() - MANUAL_REMINDER_INTERVAL_HOURS * 3_600_000));

type Membership = ExpressionBuilder<Database & { m: EventExhibitorsTable }, 'm'>;

/**
 * The membership `m` is in the audience: no nomination in the event (noVotes), or fewer than its
 * limit in some category of the event (incomplete, the filter "Incompletos", which includes those
 * without any).
 */
const inAudience =
  (eventId: string, audience: ReminderAudience) =>
  ({ selectFrom, exists }: Membership) => {
    if (audience === 'noVotes') {
      const nominations = selectFrom('nominations as v')
        .select(sql<number>`count(*)`.as('n'))
        .where('v.event_id', '=', eventId)
        .whereRef('v.exhibitor_id', '=', 'm.exhibitor_id');
      return sql<boolean>`(${nominations}) < 1`;
    }
    const nominationsIn = selectFrom('nominations as v')
      .select(sql<number>`count(*)`.as('n'))
      .where('v.event_id', '=', eventId)
      .whereRef('v.exhibitor_id', '=', 'm.exhibitor_id')
      .where(sql<boolean>`v.category = c.address`);
    return exists(
      selectFrom('event_categories as c')
        .select('c.address')
        .where('c.event_id', '=', eventId)
        .where(sql<boolean>`(${nominationsIn}) < c.nominee_limit`),
    );
  };

/** Invited exhibitors of the event in the audience (the others cannot vote yet). */
function audienceOf(db: Db, eventId: string, audience: ReminderAudience) {
  return db
    .selectFrom('event_exhibitors as m')
    .where('m.event_id', '=', eventId)
    .where('m.invited_at', 'is not', null)
    .where(inAudience(eventId, audience));
}

/** Who "Enviar recordatorio" is for (`to`: the button that opened it). */
export interface ReminderRequest extends EventRef {
  to: ReminderAudience;
}

/** What "Enviar recordatorio" says before sending. */
export async function planReminder(
  deps: AppDeps,
  { eventId, to: audience }: ReminderRequest,
): Promise<ReminderPlan> {
  await getEventOr404(deps.db, eventId);
  const cutoff = reminderCutoff(deps.clock.now());
  const row = await audienceOf(deps.db, eventId, audience)
    .select([
      sql<number>`cast(count(*) as integer)`.as('in_audience'),
      sql<number>`cast(sum(case when m.last_reminded_at > ${cutoff} then 1 else 0 end) as integer)`.as(
        'recent',
      ),
    ])
    .executeTakeFirstOrThrow();
  const recent = Number(row.recent ?? 0);
  return { recipients: Number(row.in_audience) - recent, remindedRecently: recent };
}

/**
 * Reminds every invited exhibitor of the event in the audience, except those reminded by hand in
 * the last 12 hours (by either button). Claiming each exhibitor is one conditional update, so two
 * administrators (or two clicks) at once never remind anybody twice.
 */
export async function sendReminder(
  deps: AppDeps,
  { admin, eventId, to: audience }: ReminderRequest & { admin: Admin },
): Promise<ReminderPlan> {
  return inEventTransaction(deps, eventId, async (tx, event, now) => {
    const calendar = calendarOf(event, deps.config.timeZone);
    // Before the opening nobody has been told of the event yet.
    if (isDraft(calendar, now))
      throw new AppError('voting_closed', { message: MSG.votingNotOpenYet });
    if (hasVotingEnded(calendar, now)) throw new AppError('voting_closed');
    const inTheAudience = await audienceOf(tx, eventId, audience)
      .select(sql<number>`cast(count(*) as integer)`.as('n'))
      .executeTakeFirstOrThrow();
    const claimed = await tx
      .updateTable('event_exhibitors as m')
      .set({ last_reminded_at: iso(now) })
      .where('m.event_id', '=', eventId)
      .where('m.invited_at', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('m.last_reminded_at', 'is', null),
          eb('m.last_reminded_at', '<=', reminderCutoff(now)),
        ]),
      )
      .where(inAudience(eventId, audience))
      .returning('exhibitor_id')
      .execute();
    const ids = claimed.map((row) => row.exhibitor_id);
    const recipients = ids.length
      ? await tx.selectFrom('exhibitors').select(['id', 'email']).where('id', 'in', ids).execute()
      : [];
    for (const exhibitor of recipients) {
      await enqueueMail(tx, now, {
        template: 'nonvoter-reminder',
        to: exhibitor.email,
        params:
          audience === 'incomplete'
            ? { eventId, audience, exhibitorId: exhibitor.id }
            : { eventId },
        eventId,
        exhibitorId: exhibitor.id,
      });
    }
    await recordAudit(tx, admin, now, {
      action: 'exhibitors.reminded',
      entityType: 'event',
      entityId: eventId,
      eventId,
      details: {
        reminded: recipients.map((exhibitor) => exhibitor.email),
        ...(audience === 'incomplete' ? { audience } : {}),
      },
    });
    return {
      recipients: recipients.length,
      remindedRecently: Number(inTheAudience.n) - recipients.length,
    };
  });
}
