import { z } from 'zod';
import { mailDeadlineClosingText } from '../../../shared/deadline-zone.ts';
import { readEventCategories } from '../../lib/event-categories.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const nominationReceiptParams = z.object({ eventId: z.string(), exhibitorId: z.string() });
export type NominationReceiptParams = z.output<typeof nominationReceiptParams>;

/**
 * The receipt an exhibitor gets once their lists have rested after a change: every ranked list as
 * stored when it is sent (the debounce makes that the lists as last saved) and the deadline. An
 * exhibitor no longer in the event (or a deleted event) gets nothing.
 */
export const nominationReceipt = mailTemplate({
  params: nominationReceiptParams,
  async render({ eventId, exhibitorId }, { db, config }) {
    const event = await db
      .selectFrom('events')
      .innerJoin('event_exhibitors as m', 'm.event_id', 'events.id')
      .select(['events.name', 'events.vote_deadline', 'events.close_time', 'events.time_zone'])
      .where('events.id', '=', eventId)
      .where('m.exhibitor_id', '=', exhibitorId)
      .executeTakeFirst();
    if (!event) return null;
    // One statement for every list: they are read from one snapshot.
    const rows = await db
      .selectFrom('nominations')
      .select(['category', 'list_order', 'fiscal_id', 'name'])
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .orderBy('category')
      .orderBy('list_order')
      .execute();
    // Every category of the event by its name, in the event's order.
    const categories = await readEventCategories(db, eventId);
    const lists = categories.flatMap((category) => {
      const entries = rows.filter((row) => row.category === category.address);
      return [
        `${category.name}:`,
        ...(entries.length === 0
          ? ['Sin nominaciones.']
          : entries.map((row) => `${row.list_order}. ${row.name} (ID fiscal ${row.fiscal_id})`)),
      ];
    });
    return layout({
      subject: `Tus nominaciones en ${event.name}`,
      paragraphs: [
        `Estas son tus nominaciones en ${event.name}, tal como quedaron guardadas:`,
        ...lists,
        `${mailDeadlineClosingText(event.vote_deadline, event.time_zone ?? config.timeZone, event.close_time)}. Hasta entonces puedes cambiarlas; si lo haces, te enviaremos un nuevo comprobante.`,
      ],
      action: { label: 'Revisar mis nominaciones', url: `${config.appUrl}/exh/event/${eventId}` },
    });
  },
});
