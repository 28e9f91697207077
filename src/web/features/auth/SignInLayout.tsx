import { Box, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** The public sign-in screens: logo, one heading, a narrow card that fits a 390 px phone. */
export function SignInLayout({ title, children }: { title: string; children: ReactNode }) {
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
      <Paper sx={{ p: { xs: 3, sm: 5 }, width: '100%', maxWidth: 440 }}>
        <Box sx={{ textAlign: 'center', mb: 2 }}>
          <Box
            component="img"
            src="/api/logo"
            alt="Logo"
            sx={{ maxWidth: '100%', height: 64, objectFit: 'contain' }}
          />
        </Box>
        <Typography variant="h2" component="h1" sx={{ textAlign: 'center', mb: 3 }}>
          {title}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}
