import type { Readable } from 'node:stream';
import { zoneLabel } from '../../../shared/deadline-zone.ts';
import { sql } from 'kysely';
import { CATEGORIES, CATEGORY_LABELS, type Category } from '../../../shared/constants.ts';
import type { EventCategory } from '../../db/schema.ts';
import { readEventCategories } from '../../lib/event-categories.ts';
import {
  AUDIT_ACTIONS,
  auditActionLabel,
  auditDetailText,
  readAuditDetails,
} from '../../../shared/audit-entries.ts';
import { CORRECTION_REASON_LABELS } from '../../../shared/correction-reasons.ts';
import { MSG } from '../../../shared/messages.ts';
import { INVITATION_STATUS_LABELS } from '../../../shared/schemas/exhibitors.ts';
import type { RankingRow } from '../../../shared/schemas/results.ts';
import { TIE_BREAK_LABELS } from '../../../shared/tie-breaks.ts';
import { engineOf, type Db } from '../../db/connection.ts';
import { invitationStatus, memberField } from '../../lib/member-rows.ts';
import {
  dateTimeCell,
  streamWorkbook,
  type Cell,
  type StreamedSheet,
} from '../../lib/xlsx-stream.ts';
import type { AppDeps } from '../../deps.ts';
import { streamedRanking, type EventRef } from './service.ts';

export const EVENT_SHEETS = [
  'CONSUMO',
  'VALOR AGREGADO',
  'Votos',
  'Participación',
  'Correcciones',
] as const;

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

/** The worksheet names Excel refuses (case aside) besides its character rules. */
const RESERVED_SHEET_NAMES = new Set(['history']);
const SHEET_NAME_MAX = 31;

/**
 * A category's sheet name under Excel's rules: at most 31 characters, none of `: \ / ? * [ ]`,
 * no apostrophe at either end, not "History", and unique in the workbook ignoring case (a clash
 * gets " (2)", " (3)" … within the 31).
 */
export function sheetNameFor(name: string, taken: ReadonlySet<string>): string {
  const cleaned =
    name
      .replace(/[:\\/?*[\]]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^'+|'+$/g, '')
      .trim()
      .slice(0, SHEET_NAME_MAX)
      .trim() || 'Categoría';
  const free = (candidate: string) =>
    !taken.has(candidate.toLowerCase()) && !RESERVED_SHEET_NAMES.has(candidate.toLowerCase());
  if (free(cleaned)) return cleaned;
  for (let suffix = 2; ; suffix++) {
    const tail = ` (${suffix})`;
    const candidate = `${cleaned.slice(0, SHEET_NAME_MAX - tail.length).trim()}${tail}`;
    if (free(candidate)) return candidate;
  }
}

/** One category's ranking: "1°" … "{n}°" for its n nominees, its points by its scoring. */
function rankingSheet(
  db: Db,
  eventId: string,
  category: EventCategory,
  name: string,
): StreamedSheet {
  const places = Array.from({ length: Number(category.nominee_limit) }, (_, i) => `${i + 1}°`);
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
        yield rankingCells(row);
      }
    },
  };
}

function rankingCells(row: RankingRow): Cell[] {
  return [
    row.position,
    row.fiscalId,
    row.name,
    row.registeredName,
    ...row.places,
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
function participationSheet(db: Db, eventId: string, timeZone: string): StreamedSheet {
  return {
    name: 'Participación',
    headers: [
      'Expositor',
      'Email',
      'Empresa',
      'Invitación',
      `Último ingreso (${zoneLabel(timeZone)})`,
      ...CATEGORIES.map((c) => CATEGORY_LABELS[c]),
    ],
    numericHeaders: CATEGORIES.map((c) => CATEGORY_LABELS[c]),
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
          .select((eb) => {
            const countIn = (category: Category) =>
              eb
                .selectFrom('nominations as n')
                .select(sql<number>`cast(count(*) as integer)`.as('c'))
                .whereRef('n.exhibitor_id', '=', 'e.id')
                .where('n.event_id', '=', eventId)
                .where('n.category', '=', category);
            return [countIn('consumption').as('consumption'), countIn('value').as('value')];
          })
          .where('m.event_id', '=', eventId)
          .where('e.id', 'in', ids)
          .execute();
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
            ...CATEGORIES.map((category) => Number(row[category] ?? 0)),
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
function correctionsSheet(db: Db, eventId: string, timeZone: string): StreamedSheet {
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
            : ['', auditDetailText(row.action, row.details), '', '']),
        ] satisfies Cell[];
      }
    },
  };
}

/**
 * The whole event in one workbook ("{evento}-completo.xlsx"): each category's ranking with per-place counts
 * and the tie-break, every vote, participation and the administrators' corrections. Streamed.
 * Instants are date cells showing the wall-clock time of the event's zone, which their column
 * headers name ("hora de Buenos Aires").
 */
export async function eventWorkbook(
  { db }: Pick<AppDeps, 'db'>,
  { eventId, timeZone }: EventRef & { timeZone: string },
): Promise<Readable> {
  // One sheet per category, in the event's order, named by it; then the sheets every event has.
  const taken = new Set(['votos', 'participación', 'correcciones']);
  const rankings = (await readEventCategories(db, eventId)).map((category) => {
    const name = sheetNameFor(category.name, taken);
    taken.add(name.toLowerCase());
    return rankingSheet(db, eventId, category, name);
  });
  return streamWorkbook([
    ...rankings,
    votesSheet(db, eventId),
    participationSheet(db, eventId, timeZone),
    correctionsSheet(db, eventId, timeZone),
  ]);
}
