import type { TieBreak } from './schemas/results.ts';

/**
 * How the ranking names what separated a row from the one above it: the "Desempate" column of
 * the whole-event workbook and the line under the category tab's table.
 */
export const TIE_BREAK_LABELS: Record<TieBreak, string> = {
  points: 'Puntos',
  places: 'Puestos (1° a 5°)',
  nominations: 'Nominaciones',
  earliest: 'Primera nominación',
  tied: 'Empate',
};
