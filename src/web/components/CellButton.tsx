import { Button } from '@mui/material';
import type { ReactNode } from 'react';

/** A table cell's text that opens something (e.g. the row's edit dialog): a flat text button. */
export function CellButton({ onClick, children }: { onClick(): void; children: ReactNode }) {
  return (
    <Button
      variant="text"
      onClick={onClick}
      sx={{ p: 0, minWidth: 0, textAlign: 'left', justifyContent: 'flex-start' }}
    >
      {children}
    </Button>
  );
}
