import type { Readable } from 'node:stream';
import { zoneLabel } from '../../../shared/deadline-zone.ts';
import { sql } from 'kysely';
import {
  AUDIT_ACTIONS,
  auditActionLabel,
  auditDetailText,
  categoryNamer,
  readAuditDetails,
  type CategoryNamer,
} from '../../../shared/audit-entries.ts';
import { CORRECTION_REASON_LABELS } from '../../../shared/correction-reasons.ts';
import { MSG } from '../../../shared/messages.ts';
import { INVITATION_STATUS_LABELS } from '../../../shared/schemas/exhibitors.ts';
import type { RankingRow } from '../../../shared/schemas/results.ts';
import { TIE_BREAK_LABELS } from '../../../shared/tie-breaks.ts';
import { engineOf, type Db } from '../../db/connection.ts';
import type { EventCategory } from '../../db/schema.ts';
import { readEventCategories } from '../../lib/event-categories.ts';
import { XML_INVALID_CHARACTER } from '../../../shared/schemas/common.ts';
import { invitationStatus, memberField } from '../../lib/member-rows.ts';
import {
  dateTimeCell,
  streamWorkbook,
  type Cell,
  type StreamedSheet,
} from '../../lib/xlsx-stream.ts';
import type { AppDeps } from '../../deps.ts';
import { streamedRanking, type EventRef } from './service.ts';

/** The sheets after the categories' rankings, in their order. */
export const EVENT_SHEETS = ['Votos', 'Participación', 'Correcciones'] as const;

/** Excel's longest sheet name. */
const SHEET_NAME_MAX = 31;
/** Characters Excel refuses in a sheet name, and those XML cannot hold. */
const FORBIDDEN_IN_SHEET_NAME = new RegExp(
  `[:\\\\/?*\\[\\]]|${XML_INVALID_CHARACTER.source}`,
  'gu',
);

/** Excel compares sheet names ignoring case. */
const sheetKey = (name: string) => name.toLocaleUpperCase('es');

/** The first `max` characters (code points, so an emoji is never cut in half), trailing spaces off. */
const shortened = (text: string, max: number) => Array.from(text).slice(0, max).join('').trimEnd();

/**
 * The ranking sheets' names, one per category in order: the category's name cleaned to Excel's
 * rules (forbidden characters as spaces, no leading or trailing apostrophe, at most 31 characters,
 * never blank) and unique ignoring case, among themselves and beside `reserved` (the other sheets):
 * a clash gets " (2)", " (3)"… within the 31 characters.
 */
export function categorySheetNames(
  names: readonly string[],
  reserved: readonly string[] = EVENT_SHEETS,
): string[] {
  // Excel keeps "History" for itself, whatever the case.
  const taken = new Set([...reserved, 'History'].map(sheetKey));
  return names.map((name) => {
    const cleaned =
      name
        .replace(FORBIDDEN_IN_SHEET_NAME, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/^'+|'+$/g, '')
        .trim() || 'Categoría';
    let candidate = shortened(cleaned, SHEET_NAME_MAX);
    for (let n = 2; taken.has(sheetKey(candidate)); n++) {
      const suffix = ` (${n})`;
      candidate = `${shortened(cleaned, SHEET_NAME_MAX - suffix.length)}${suffix}`;
    }
    taken.add(sheetKey(candidate));
    return candidate;
  });
}

/** "1°" … "{n}°": how many put a nominee in each place of a category of n nominees. */
const placeHeaders = (nomineeLimit: number) =>
  Array.from({ length: nomineeLimit }, (_, index) => `${index + 1}°`);

const NOMINEE_FIELDS = [
  ['Nombre del reseller', 'name'],
  ['Razón social', 'registered_name'],
  ['ID fiscal', 'fiscal_id'],
  ['Nombre del contacto', 'contact_name'],
  ['Cargo del contacto', 'contact_position'],
  ['Teléfono', 'phone'],
  ['Email', 'email'],
  ['Localidad', 'location'],
  ['Ciudad', 'city'],
] as const;

/** Rows read from PostgreSQL at a time, from SQLite per statement: what the export holds at once. */
const BATCH = 250;

/** A sheet's query, which sheetRows reads whole or a page at a time. */
interface RowQuery<R> {
  limit(limit: number): { execute(): Promise<R[]> };
  stream(chunkSize: number): AsyncIterableIterator<R>;
}

/**
 * The rows of a sheet in the order of its query: `query(after)` is the query of the rows that
 * follow `after` in that order (every row when `after` is undefined). PostgreSQL sends them from
 * one statement, so from one snapshot, through a cursor BATCH rows at a time. SQLite reads them in
 * keyset pages of BATCH rows: a statement streamed from SQLite would hold its one connection, and
 * every other request with it, while a slow download is written.
 *
 * BATCH is small because what survives the young generation's collections sets its size: with
 * 2,000-row pages on SQLite, or PostgreSQL's whole results, it grew to its largest and the server
 * peaked near 300 MB.
 */
async function* sheetRows<R>(
  db: Db,
  query: (after: R | undefined) => RowQuery<R>,
): AsyncGenerator<R> {
  if (engineOf(db) === 'postgres') {
    yield* query(undefined).stream(BATCH);
    return;
  }
  let after: R | undefined;
  for (;;) {
    const rows = await query(after).limit(BATCH).execute();
    yield* rows;
    after = rows.at(-1);
    if (!after || rows.length < BATCH) return;
  }
}

function rankingSheet(
  db: Db,
  eventId: string,
  category: EventCategory,
  name: string,
): StreamedSheet {
  const places = placeHeaders(Number(category.nominee_limit));
  return {
    name,
    headers: [
      'Posición',
      'ID fiscal',
      'Nombre del reseller',
      'Razón social',
      ...places,
      'Puntos',
      'Nominaciones',
      'Desempate',
    ],
    numericHeaders: ['Posición', ...places, 'Puntos', 'Nominaciones'],
    async *rows() {
      // One statement, so positions and tie-breaks come from one snapshot.
      for await (const row of streamedRanking(db, { eventId, category: category.address })) {
        yield rankingCells(row, places.length);
      }
    },
  };
}

function rankingCells(row: RankingRow, placeCount: number): Cell[] {
  return [
    row.position,
    row.fiscalId,
    row.name,
    row.registeredName,
    ...Array.from({ length: placeCount }, (_, index) => row.places[index] ?? 0),
    row.points,
    row.nominations,
    row.tieBreak ? TIE_BREAK_LABELS[row.tieBreak] : '',
  ];
}

/**
 * Every nomination of the event, by exhibitor, category and order; "Anulado" says "No", or "Sí"
 * with the reason for a list the organisation annulled (kept, but counted nowhere).
 */
function votesSheet(db: Db, eventId: string): StreamedSheet {
  return {
    name: 'Votos',
    headers: [
      'Expositor',
      'Empresa',
      'Categoría',
      'Orden',
      ...NOMINEE_FIELDS.map(([t]) => t),
      'Anulado',
    ],
    numericHeaders: ['Orden'],
    async *rows() {
      const votes = sheetRows(
        db,
        (after: { exhibitor_id: string; category: string; list_order: number } | undefined) => {
          let query = db
            .selectFrom('nominations as n')
            .innerJoin('event_exhibitors as m', (join) =>
              join
                .onRef('m.event_id', '=', 'n.event_id')
                .onRef('m.exhibitor_id', '=', 'n.exhibitor_id'),
            )
            .innerJoin('exhibitors as e', 'e.id', 'n.exhibitor_id')
            .innerJoin('nomination_lists as l', (join) =>
              join
                .onRef('l.event_id', '=', 'n.event_id')
                .onRef('l.exhibitor_id', '=', 'n.exhibitor_id')
                .onRef('l.category', '=', 'n.category'),
            )
            .innerJoin('event_categories as c', (join) =>
              join.onRef('c.event_id', '=', 'n.event_id').onRef('c.address', '=', 'n.category'),
            )
            .selectAll('n')
            .select([
              'c.name as category_name',
              memberField('full_name', 'm', 'e').as('full_name'),
              memberField('company', 'm', 'e').as('company'),
              'l.annulled_reason',
            ])
            .where('n.event_id', '=', eventId)
            .orderBy('n.exhibitor_id')
            .orderBy('n.category')
            .orderBy('n.list_order');
          if (after) {
            query = query.where(
              sql<boolean>`(n.exhibitor_id, n.category, n.list_order) > (${after.exhibitor_id}, ${after.category}, ${after.list_order})`,
            );
          }
          return query;
        },
      );
      for await (const row of votes) {
        yield [
          row.full_name,
          row.company,
          row.category_name,
          row.list_order,
          ...NOMINEE_FIELDS.map(([, field]) => row[field]),
          row.annulled_reason === null ? 'No' : `Sí: ${row.annulled_reason}`,
        ];
      }
    },
  };
}

/** Company, then name, as a Spanish reader sorts them: "Álvarez" with the A's, case aside. */
const spanishOrder = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

/**
 * Each exhibitor of the event, by company then name, with their invitation's state, their last
 * sign-in and how many nominees each of their lists holds. Neither engine sorts accents as Spanish
 * does (SQLite has no such collation), so the sheet reads the members' ids, companies and names
 * first (a few hundred kilobytes at 10,000 exhibitors), sorts them here and then reads the rows
 * BATCH ids at a time in that order.
 */
function participationSheet(
  db: Db,
  eventId: string,
  timeZone: string,
  categories: readonly EventCategory[],
): StreamedSheet {
  const categoryNames = categories.map((category) => category.name);
  return {
    name: 'Participación',
    headers: [
      'Expositor',
      'Email',
      'Empresa',
      'Invitación',
      `Último ingreso (${zoneLabel(timeZone)})`,
      ...categoryNames,
    ],
    numericHeaders: categoryNames,
    async *rows() {
      const keys = await db
        .selectFrom('event_exhibitors as m')
        .innerJoin('exhibitors as e', 'e.id', 'm.exhibitor_id')
        .select([
          'e.id',
          memberField('full_name', 'm', 'e').as('full_name'),
          memberField('company', 'm', 'e').as('company'),
          memberField('email', 'm', 'e').as('email'),
        ])
        .where('m.event_id', '=', eventId)
        .execute();
      const order = keys
        .sort(
          (a, b) =>
            spanishOrder.compare(a.company, b.company) ||
            spanishOrder.compare(a.full_name, b.full_name) ||
            spanishOrder.compare(a.email, b.email),
        )
        .map((key) => key.id);
      for (let start = 0; start < order.length; start += BATCH) {
        const ids = order.slice(start, start + BATCH);
        const rows = await db
          .selectFrom('event_exhibitors as m')
          .innerJoin('exhibitors as e', 'e.id', 'm.exhibitor_id')
          .leftJoin('mail_outbox as o', 'o.id', 'm.invitation_message_id')
          .select([
            'e.id',
            memberField('full_name', 'm', 'e').as('full_name'),
            memberField('email', 'm', 'e').as('email'),
            memberField('company', 'm', 'e').as('company'),
            'm.last_signed_in_at',
            'o.status as invitation_status',
          ])
          .where('m.event_id', '=', eventId)
          .where('e.id', 'in', ids)
          .execute();
        const counts = await db
          .selectFrom('nominations as n')
          .select(['n.exhibitor_id', 'n.category', sql<number>`cast(count(*) as integer)`.as('c')])
          .where('n.event_id', '=', eventId)
          .where('n.exhibitor_id', 'in', ids)
          .groupBy(['n.exhibitor_id', 'n.category'])
          .execute();
        const countOf = new Map(
          counts.map((count) => [`${count.exhibitor_id} ${count.category}`, Number(count.c)]),
        );
        const byId = new Map(rows.map((row) => [row.id, row]));
        for (const id of ids) {
          const row = byId.get(id);
          // A member removed since the ids were read is left out.
          if (!row) continue;
          yield [
            row.full_name,
            row.email,
            row.company,
            INVITATION_STATUS_LABELS[invitationStatus(row.invitation_status)],
            row.last_signed_in_at ? dateTimeCell(row.last_signed_in_at, timeZone) : '',
            ...categories.map((category) => countOf.get(`${id} ${category.address}`) ?? 0),
          ];
        }
      }
    },
  };
}

/** A corrected vote's nine fields, in the form's order (the order of their schema). */
const snapshotText = (vote: Record<string, string>) => Object.values(vote).join(' · ');

/** A correction's row: its reason, its free-text detail and the vote before and after. */
function correctionCells(rawDetails: string): Cell[] {
  const details = readAuditDetails(AUDIT_ACTIONS['vote.edit'].details, rawDetails);
  if (!details) return ['', MSG.auditDetailUnreadable, '', ''];
  return [
    CORRECTION_REASON_LABELS[details.reason],
    details.detail ?? '',
    snapshotText(details.before),
    snapshotText(details.after),
  ];
}

/** Every change an administrator made to the event, oldest first, with its reason where given. */
function correctionsSheet(
  db: Db,
  eventId: string,
  timeZone: string,
  categoryText: CategoryNamer,
): StreamedSheet {
  return {
    name: 'Correcciones',
    headers: [
      `Fecha (${zoneLabel(timeZone)})`,
      'Quién',
      'Acción',
      'Motivo',
      'Detalle',
      'Antes',
      'Después',
    ],
    async *rows() {
      const entries = sheetRows(db, (after: { id: number | string } | undefined) =>
        db
          .selectFrom('audit_log as l')
          .leftJoin('admins as a', 'a.id', 'l.actor_id')
          .select([
            'l.id',
            'l.at',
            'l.action',
            'l.details',
            'l.actor_email',
            'a.email',
            'a.full_name',
          ])
          .where('l.event_id', '=', eventId)
          .where('l.actor_role', '=', 'admin')
          .where('l.id', '>', Number(after?.id ?? 0))
          .orderBy('l.id'),
      );
      for await (const row of entries) {
        yield [
          dateTimeCell(row.at, timeZone),
          // By name, as "Historial" shows them; an address only for one who never registered.
          row.full_name ?? row.email ?? row.actor_email ?? '',
          auditActionLabel(row.action),
          ...(row.action === 'vote.edit'
            ? correctionCells(row.details)
            : ['', auditDetailText(row.action, row.details, categoryText), '', '']),
        ] satisfies Cell[];
      }
    },
  };
}

/**
 * The whole event in one workbook ("{evento}-completo.xlsx"): each category's ranking, in the
 * event's order, on a sheet named by the category, with per-place counts ("1°" … "{n}°") and the
 * tie-break; every vote, participation and the administrators' corrections. Streamed. Instants
 * are date cells showing the wall-clock time of the event's zone, which their column headers name
 * ("hora de Buenos Aires").
 */
export async function eventWorkbook(
  { db }: Pick<AppDeps, 'db'>,
  { eventId, timeZone }: EventRef & { timeZone: string },
): Promise<Readable> {
  const categories = await readEventCategories(db, eventId);
  const names = categorySheetNames(categories.map((category) => category.name));
  return streamWorkbook([
    ...categories.map((category, index) =>
      rankingSheet(db, eventId, category, names[index] ?? category.address),
    ),
    votesSheet(db, eventId),
    participationSheet(db, eventId, timeZone, categories),
    correctionsSheet(
      db,
      eventId,
      timeZone,
      categoryNamer(new Map(categories.map((category) => [category.address, category.name]))),
    ),
  ]);
}
