import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import { CATEGORIES, CATEGORY_LABELS, type Category } from '../../../shared/constants.ts';
import {
  CORRECTION_REASON_LABELS,
  type CorrectionReason,
} from '../../../shared/correction-reasons.ts';
import { HISTORY_ACTION_LABELS } from '../../../shared/history.ts';
import type { RankingRow } from '../../../shared/schemas/results.ts';
import { TIE_BREAK_LABELS } from '../../../shared/tie-breaks.ts';
import type { Db } from '../../db/connection.ts';
import { streamWorkbook, type Cell, type StreamedSheet } from '../../lib/xlsx-stream.ts';
import { describeChange } from './history.ts';
import { fullRanking } from './service.ts';

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

/** Rows read per statement: what the export holds in memory at a time. */
const BATCH = 2_000;

function rankingSheet(db: Db, eventId: string, category: Category): StreamedSheet {
  return {
    name: CATEGORY_LABELS[category],
    headers: [
      'Posición',
      'ID fiscal',
      'Nombre del reseller',
      'Razón social',
      '1°',
      '2°',
      '3°',
      '4°',
      '5°',
      'Puntos',
      'Nominaciones',
      'Desempate',
    ],
    numericHeaders: ['Posición', '1°', '2°', '3°', '4°', '5°', 'Puntos', 'Nominaciones'],
    async *rows() {
      // One statement, so positions and tie-breaks come from one snapshot: a ranking row is
      // small (one per fiscal id, 8,000 at most in the bench), unlike the votes below.
      for (const row of await fullRanking(db, eventId, category)) yield rankingCells(row);
    },
  };
}

function rankingCells(row: RankingRow): Cell[] {
  return [
    row.position,
    row.fiscalId,
    row.name,
    row.registeredName,
    row.p1,
    row.p2,
    row.p3,
    row.p4,
    row.p5,
    row.points,
    row.nominations,
    row.tieBreak ? TIE_BREAK_LABELS[row.tieBreak] : '',
  ];
}

/** Every nomination of the event, by exhibitor, category and order, read in keyset batches. */
function votesSheet(db: Db, eventId: string): StreamedSheet {
  return {
    name: 'Votos',
    headers: ['Expositor', 'Empresa', 'Categoría', 'Orden', ...NOMINEE_FIELDS.map(([t]) => t)],
    numericHeaders: ['Orden'],
    async *rows() {
      let after: { exhibitorId: string; category: string; order: number } | null = null;
      for (;;) {
        let query = db
          .selectFrom('nominations as n')
          .innerJoin('exhibitors as e', 'e.id', 'n.exhibitor_id')
          .selectAll('n')
          .select(['e.full_name', 'e.company'])
          .where('n.event_id', '=', eventId)
          .orderBy('n.exhibitor_id')
          .orderBy('n.category')
          .orderBy('n.list_order')
          .limit(BATCH);
        if (after) {
          const { exhibitorId, category, order } = after;
          query = query.where(
            sql<boolean>`(n.exhibitor_id, n.category, n.list_order) > (${exhibitorId}, ${category}, ${order})`,
          );
        }
        const rows = await query.execute();
        for (const row of rows) {
          yield [
            row.full_name,
            row.company,
            CATEGORY_LABELS[row.category],
            row.list_order,
            ...NOMINEE_FIELDS.map(([, field]) => row[field]),
          ];
        }
        const last = rows.at(-1);
        if (!last || rows.length < BATCH) return;
        after = { exhibitorId: last.exhibitor_id, category: last.category, order: last.list_order };
      }
    },
  };
}

/** Each exhibitor of the event with how many nominees each of their lists holds. */
function participationSheet(db: Db, eventId: string): StreamedSheet {
  return {
    name: 'Participación',
    headers: ['Expositor', 'Email', 'Empresa', ...CATEGORIES.map((c) => CATEGORY_LABELS[c])],
    numericHeaders: CATEGORIES.map((c) => CATEGORY_LABELS[c]),
    async *rows() {
      let afterId = '';
      for (;;) {
        const rows = await db
          .selectFrom('event_exhibitors as m')
          .innerJoin('exhibitors as e', 'e.id', 'm.exhibitor_id')
          .select(['e.id', 'e.full_name', 'e.email', 'e.company'])
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
          .where('e.id', '>', afterId)
          .orderBy('e.id')
          .limit(BATCH)
          .execute();
        for (const row of rows) {
          yield [
            row.full_name,
            row.email,
            row.company,
            ...CATEGORIES.map((category) => Number(row[category] ?? 0)),
          ];
        }
        const last = rows.at(-1);
        if (!last || rows.length < BATCH) return;
        afterId = last.id;
      }
    },
  };
}

interface VoteSnapshot {
  fiscalId?: string;
  name?: string;
  [field: string]: unknown;
}

const snapshotText = (vote: VoteSnapshot | undefined) =>
  vote
    ? Object.values(vote)
        .map((value) => String(value))
        .join(' · ')
    : '';

/** Every change an administrator made to the event, oldest first, with its reason where given. */
function correctionsSheet(db: Db, eventId: string): StreamedSheet {
  return {
    name: 'Correcciones',
    headers: ['Fecha', 'Quién', 'Acción', 'Motivo', 'Detalle', 'Antes', 'Después'],
    async *rows() {
      let afterId = 0;
      for (;;) {
        const rows = await db
          .selectFrom('audit_log as l')
          .leftJoin('admins as a', 'a.id', 'l.actor_id')
          .select(['l.id', 'l.at', 'l.action', 'l.details', 'l.actor_email', 'a.email'])
          .where('l.event_id', '=', eventId)
          .where('l.actor_role', '=', 'admin')
          .where('l.id', '>', afterId)
          .orderBy('l.id')
          .limit(BATCH)
          .execute();
        for (const row of rows) {
          const details = JSON.parse(row.details) as {
            reason?: CorrectionReason;
            detail?: string;
            before?: VoteSnapshot;
            after?: VoteSnapshot;
          };
          const isVote = row.action === 'vote.edit';
          yield [
            row.at,
            row.email ?? row.actor_email ?? '',
            HISTORY_ACTION_LABELS[row.action] ?? row.action,
            details.reason ? (CORRECTION_REASON_LABELS[details.reason] ?? '') : '',
            isVote ? (details.detail ?? '') : describeChange(row.action, row.details),
            isVote ? snapshotText(details.before) : '',
            isVote ? snapshotText(details.after) : '',
          ] satisfies Cell[];
        }
        const last = rows.at(-1);
        if (!last || rows.length < BATCH) return;
        afterId = Number(last.id);
      }
    },
  };
}

/**
 * The whole event in one workbook ("{evento}-completo.xlsx"): both rankings with per-place counts
 * and the tie-break, every vote, participation and the administrators' corrections. Streamed.
 */
export function eventWorkbook(db: Db, eventId: string): Readable {
  return streamWorkbook([
    rankingSheet(db, eventId, 'consumption'),
    rankingSheet(db, eventId, 'value'),
    votesSheet(db, eventId),
    participationSheet(db, eventId),
    correctionsSheet(db, eventId),
  ]);
}
