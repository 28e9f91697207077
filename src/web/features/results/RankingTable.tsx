import { Box, Link as MuiLink, Typography } from '@mui/material';
import { Link } from 'react-router';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import type { RankingRow } from '../../../shared/schemas/results.ts';
import { TIE_BREAK_LABELS } from '../../../shared/tie-breaks.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { nomineePagePath } from './queries.ts';
import { PhoneOnly } from '../../components/PhoneOnly.tsx';

const count = (header: string, render: (row: RankingRow) => number): Column<RankingRow> => ({
  header,
  width: 44,
  align: 'right',
  keepWords: true,
  render,
});

/**
 * One page of a category ranking: position (rows sharing it say "empate"), name, fiscal id, email, how many
 * exhibitors nominated it, how many put it 1st … n° (the category's "Nominaciones por expositor"),
 * and its points.
 */
export function RankingTable({
  eventId,
  category,
  nomineeLimit,
  rows,
}: {
  eventId: string;
  category: CategoryAddress;
  nomineeLimit: number;
  rows: RankingRow[];
}) {
  // A row shares its position with the one above it ("tied"), or the one below shares with it.
  const sharesPosition = (row: RankingRow, index: number) =>
    row.tieBreak === 'tied' || rows[index + 1]?.tieBreak === 'tied';
  const columns: Column<RankingRow>[] = [
    {
      header: 'Puesto',
      width: 72,
      keepWords: true,
      render: (row, index) => (
        <>
          {`${row.position}°`}
          {sharesPosition(row, index) ? (
            <Typography
              component="span"
              variant="caption"
              color="text.secondary"
              sx={{ display: 'block' }}
            >
              empate
            </Typography>
          ) : null}
        </>
      ),
    },
    {
      header: 'Nombre',
      minWidth: 150,
      render: (row) => (
        <>
          <MuiLink component={Link} to={nomineePagePath(eventId, category, row.fiscalId)}>
            {row.name}
          </MuiLink>
          <PhoneOnly>{row.email}</PhoneOnly>
        </>
      ),
    },
    // Two rows of one reseller show why they are two: their fiscal ids differ.
    { header: 'ID fiscal', keepWords: true, render: (row) => row.fiscalId },
    { header: 'Email', hideOnPhone: true, render: (row) => row.email },
    count('Votos', (row) => row.nominations),
    // The per-place counts, "1°" to "{n}°", in the order of the ranking's tie-break.
    ...Array.from({ length: nomineeLimit }, (_, i) =>
      count(`${i + 1}°`, (row) => row.places[i] ?? 0),
    ),
    count('Puntos', (row) => row.points),
  ];
  return (
    <DataTable
      label="Votos"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.fiscalId}
      emptyText={MSG.noVotes}
    />
  );
}

/**
 * Under the table: for each row that equal points did not separate from the row above it, the
 * criterion that did (or that nothing did, and they share the position).
 */
export function TieBreakNotes({ rows }: { rows: RankingRow[] }) {
  const notes = rows.filter((row) => row.tieBreak !== null && row.tieBreak !== 'points');
  if (notes.length === 0) return null;
  return (
    <Box component="section" aria-label="Desempates">
      <Typography variant="body2" sx={{ fontWeight: 700 }}>
        Desempates con la fila anterior
      </Typography>
      <Box component="ul" sx={{ my: 0.5, pl: 3 }}>
        {notes.map((row) => (
          <Typography component="li" variant="body2" key={row.fiscalId}>
            {`${row.position}° ${row.name}: ${row.tieBreak ? TIE_BREAK_LABELS[row.tieBreak] : ''}`}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}
