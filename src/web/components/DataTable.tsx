import {
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';

export interface Column<Row> {
  /** The column's name (and its key); `headerContent` replaces it on screen when given. */
  header: string;
  /** The column's key when its name may repeat another's (a category named "Email"). */
  key?: string;
  /** A control in the header cell instead of the name (a "Seleccionar todos" checkbox). */
  headerContent?: ReactNode;
  render(row: Row, index: number): ReactNode;
  /** Hidden on phones when the column is secondary. */
  hideOnPhone?: boolean;
  width?: number | string;
  /** Keeps a column readable when many columns share a phone (the table then scrolls sideways). */
  minWidth?: number;
  /** Short words (e.g. "CONSUMO") wrap between words only, never mid-word on a phone. */
  keepWords?: boolean;
  /** A date or an instant: kept on one line ("27-11-2026 14:05" never splits). */
  noWrap?: boolean;
  align?: 'left' | 'right' | 'center';
}

/** The product's tables: column headers, wrapping cells (no sideways scroll at 390 px), empty text. */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  emptyText,
  label,
}: {
  columns: Column<Row>[];
  rows: Row[];
  rowKey(row: Row): string;
  emptyText: string;
  label?: string;
}) {
  const phoneHidden = (column: Column<Row>) => ({
    ...(column.hideOnPhone ? { display: { xs: 'none', sm: 'table-cell' } } : {}),
    // Doubled class: outweighs the table's own rule for every cell.
    ...(column.keepWords ? { '&&': { overflowWrap: 'normal' as const } } : {}),
    ...(column.noWrap ? { '&&': { whiteSpace: 'nowrap' as const } } : {}),
  });
  return (
    // A table wider than a phone scrolls in this frame, which a keyboard must reach too.
    <TableContainer
      component={Paper}
      variant="outlined"
      tabIndex={0}
      role={label ? 'region' : undefined}
      aria-label={label}
    >
      <Table
        size="small"
        aria-label={label}
        sx={{
          '& td, & th': { overflowWrap: 'anywhere', px: { xs: 1, sm: 2 } },
          // A header never breaks inside a word ("Invitació n"): its column is at least as wide
          // as its longest word, and a table too wide for a phone scrolls in its own frame.
          '& th': { overflowWrap: 'normal', hyphens: 'manual' },
        }}
      >
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell
                key={column.key ?? column.header}
                align={column.align}
                sx={{
                  fontWeight: 700,
                  width: column.width,
                  minWidth: column.minWidth,
                  ...phoneHidden(column),
                }}
              >
                {column.headerContent ?? column.header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length}>
                <Typography sx={{ py: 2, textAlign: 'center' }} color="text.secondary">
                  {emptyText}
                </Typography>
              </TableCell>
            </TableRow>
          ) : (
            rows.map((row, index) => (
              <TableRow key={rowKey(row)} hover>
                {columns.map((column) => (
                  <TableCell
                    key={column.key ?? column.header}
                    align={column.align}
                    sx={phoneHidden(column)}
                  >
                    {column.render(row, index)}
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
