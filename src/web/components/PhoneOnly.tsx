import { Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A secondary line shown under a cell's main text on phones, where its own column is hidden. */
export function PhoneOnly({ children }: { children: ReactNode }) {
  return (
    <Typography
      component="span"
      variant="body2"
      color="text.secondary"
      sx={{ display: { xs: 'block', sm: 'none' }, mt: 0.25 }}
    >
      {children}
    </Typography>
  );
}
