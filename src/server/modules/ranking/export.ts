import type { Nominee } from '../../../shared/schemas/nominee.ts';
import type { RankingRow } from '../../../shared/schemas/results.ts';
import { writeWorkbook } from '../../lib/xlsx.ts';

/** The worksheet name of every export, fixed by the product. */
export const SHEET_NAME = 'data';

/** Column titles, in the order of the nominee form, with the field each one shows. */
const NOMINEE_COLUMNS: [string, keyof Nominee][] = [
  ['Nombre del reseller', 'name'],
  ['Razón social', 'registeredName'],
  ['ID fiscal', 'fiscalId'],
  ['Nombre del contacto', 'contactName'],
  ['Cargo del contacto', 'contactPosition'],
  ['Teléfono', 'phone'],
  ['Email', 'email'],
  ['Localidad', 'location'],
  ['Ciudad', 'city'],
];

export const RANKING_HEADERS = [...NOMINEE_COLUMNS.map(([title]) => title), 'Puntos'];
const NOMINEE_EXPORT_COLUMNS = NOMINEE_COLUMNS.filter(([, field]) => field !== 'fiscalId');
export const NOMINEE_HEADERS = NOMINEE_EXPORT_COLUMNS.map(([title]) => title);

export function rankingWorkbook(rows: RankingRow[]): Promise<Buffer> {
  return writeWorkbook(
    SHEET_NAME,
    RANKING_HEADERS,
    rows.map((row) => [...NOMINEE_COLUMNS.map(([, field]) => row[field]), row.points]),
    ['Puntos'],
  );
}

export function nomineeWorkbook(votes: Nominee[]): Promise<Buffer> {
  return writeWorkbook(
    SHEET_NAME,
    NOMINEE_HEADERS,
    votes.map((vote) => NOMINEE_EXPORT_COLUMNS.map(([, field]) => vote[field])),
  );
}
