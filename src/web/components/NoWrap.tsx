import { Box } from '@mui/material';
import type { ReactNode } from 'react';

/** Text kept on one line: a date or an instant never splits ("27-11-2026" / "14:05"). */
export function NoWrap({ children }: { children: ReactNode }) {
  return (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
      {children}
    </Box>
  );
}
