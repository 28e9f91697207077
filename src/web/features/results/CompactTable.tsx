import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  type SxProps,
  type Theme,
} from '@mui/material';
import type { ReactNode } from 'react';

/**
 * The results dialogs' small tables (a duplicate group, the merge preview): bold headers, narrow
 * cells whose long text wraps. The children are the body's rows.
 */
export function CompactTable({
  label,
  headers,
  sx,
  children,
}: {
  label: string;
  /** The column headers; the last one (the points) is aligned right. */
  headers: string[];
  /** More styles, after the common ones. */
  sx?: SxProps<Theme>;
  children: ReactNode;
}) {
  return (
    <Table
      size="small"
      aria-label={label}
      sx={[
        { '& td, & th': { px: 1, overflowWrap: 'anywhere' } },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <TableHead>
        <TableRow>
          {headers.map((header, index) => (
            <TableCell
              key={header}
              sx={{ fontWeight: 700 }}
              align={index === headers.length - 1 ? 'right' : undefined}
            >
              {header}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>{children}</TableBody>
    </Table>
  );
}
