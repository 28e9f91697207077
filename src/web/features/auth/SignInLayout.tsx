import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { PublicFrame, PublicLogo } from '../../components/PublicFrame.tsx';

/** The public sign-in screens: logo, one heading, a narrow card that fits a 390 px phone. */
export function SignInLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PublicFrame padding={5}>
      <Box sx={{ textAlign: 'center', mb: 2 }}>
        <PublicLogo height={64} />
      </Box>
      <Typography variant="h2" component="h1" sx={{ textAlign: 'center', mb: 3 }}>
        {title}
      </Typography>
      {children}
    </PublicFrame>
  );
}
