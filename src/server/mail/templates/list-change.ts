import { z } from 'zod';
import { formatMailInstant } from '../../../shared/dates.ts';
import { zoneLabel } from '../../../shared/deadline-zone.ts';
import { readEventCategories } from '../../lib/event-categories.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const LIST_CHANGE_TEMPLATE = 'list-change' as const;

/**
 * The message that reports a batch of administrators' changes to one exhibitor's lists
 * (mail/list-changes.ts): the changes of the batch are the rows of list_changes with its id.
 */
export const listChangeParams = z.object({
  eventId: z.string(),
  exhibitorId: z.string(),
  batchId: z.string(),
});
export type ListChangeParams = z.output<typeof listChangeParams>;

const reportedEntries = z.array(z.object({ fiscalId: z.string(), name: z.string() }));

const parseEntries = (text: string) => reportedEntries.parse(JSON.parse(text));

function entriesText(entries: z.output<typeof reportedEntries>): string[] {
  return entries.length === 0
    ? ['Sin nominaciones.']
    : entries.map((entry, index) => `${index + 1}. ${entry.name} (ID fiscal ${entry.fiscalId})`);
}

/**
 * "Se modificaron tus nominaciones en {evento}": per category changed, the list before the first
 * change of the batch and after the last (a merge undone within the quiet spell shows the net
 * result), then each change with its instant in the event's zone, the administrator's name and the
 * reason. Rendered when sent and checked then, as the reminders are: nothing goes to an exhibitor
 * no longer in the event or never invited, nor once the event is archived. The voting having ended
 * does not stop it: corrections usually come after the deadline.
 */
export const listChange = mailTemplate({
  params: listChangeParams,
  async render({ eventId, exhibitorId, batchId }, { db, config }) {
    const event = await db
      .selectFrom('events')
      .leftJoin('event_exhibitors as m', (join) =>
        join.onRef('m.event_id', '=', 'events.id').on('m.exhibitor_id', '=', exhibitorId),
      )
      .select([
        'events.name',
        'events.archived_at',
        'events.time_zone',
        'm.exhibitor_id as member',
        'm.invited_at',
      ])
      .where('events.id', '=', eventId)
      .executeTakeFirst();
    if (!event || event.member === null) return { skipped: 'not_member' };
    if (event.archived_at !== null) return { skipped: 'archived' };
    if (event.invited_at === null) return { skipped: 'not_invited' };
    const changes = await db
      .selectFrom('list_changes as c')
      .leftJoin('admins as a', 'a.id', 'c.admin_id')
      .select(['c.category', 'c.before', 'c.after', 'c.reason', 'c.changed_at', 'a.full_name'])
      .where('c.batch_id', '=', batchId)
      .where('c.event_id', '=', eventId)
      .where('c.exhibitor_id', '=', exhibitorId)
      .orderBy('c.id')
      .execute();
    if (changes.length === 0) return { skipped: 'unwanted' };
    const timeZone = event.time_zone ?? config.timeZone;
    const ofCategory = (address: string) => changes.filter((c) => c.category === address);
    const categories = await readEventCategories(db, eventId);
    const lists = categories.flatMap((category) => {
      const own = ofCategory(category.address);
      const first = own[0];
      const last = own.at(-1);
      if (!first || !last) return [];
      return [
        `${category.name}:`,
        'Antes:',
        ...entriesText(parseEntries(first.before)),
        'Después:',
        ...entriesText(parseEntries(last.after)),
      ];
    });
    // A merge touching both lists of one exhibitor at once is one change to tell, not two.
    const told = new Set<string>();
    const reasons = changes.flatMap((change) => {
      const line = `Modificado por ${change.full_name ?? 'la organización'} el ${formatMailInstant(change.changed_at, timeZone)} (${zoneLabel(timeZone)}). Motivo: ${change.reason}`;
      if (told.has(line)) return [];
      told.add(line);
      return [line];
    });
    return layout({
      subject: `Se modificaron tus nominaciones en ${event.name}`,
      paragraphs: [
        `La organización de ${event.name} modificó tus nominaciones. Así estaban y así quedaron:`,
        ...lists,
        ...reasons,
      ],
      action: { label: 'Revisar mis nominaciones', url: `${config.appUrl}/exh/event/${eventId}` },
    });
  },
});
