import { Box, Paper } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * The public pages' frame (the landing page, the sign-in screens): a narrow card centred on the
 * page that fits a 390 px phone. `padding` is the card's inner space from a tablet up.
 */
export function PublicFrame({
  padding,
  centered = false,
  children,
}: {
  padding: number;
  centered?: boolean;
  children: ReactNode;
}) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        p: 2,
        bgcolor: 'background.default',
      }}
    >
      <Paper
        sx={{
          p: { xs: 3, sm: padding },
          textAlign: centered ? 'center' : undefined,
          width: '100%',
          maxWidth: 440,
        }}
      >
        {children}
      </Paper>
    </Box>
  );
}

/** The organisation's logo ("Logo"), `height` pixels high. */
export function PublicLogo({ height }: { height: number }) {
  return (
    <Box
      component="img"
      src="/api/logo"
      alt="Logo"
      sx={{ maxWidth: '100%', height, objectFit: 'contain' }}
    />
  );
}
