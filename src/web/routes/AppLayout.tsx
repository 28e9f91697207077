import { Box, Container } from '@mui/material';
import { lazy } from 'react';
import { Outlet } from 'react-router';
import { TopBar } from '../components/TopBar.tsx';

const LogoDialog = lazy(() => import('../features/branding/LogoDialog.tsx'));
const RegisterAdminDialog = lazy(() => import('../features/admins/RegisterAdminDialog.tsx'));

/**
 * Signed-in screens: top bar above the page. The date pickers' provider is not here but in the
 * event dialog, so that no exhibitor screen loads the pickers.
 */
export default function AppLayout() {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <TopBar LogoDialog={LogoDialog} RegisterAdminDialog={RegisterAdminDialog} />
      <Container
        component="main"
        maxWidth="lg"
        sx={{ py: { xs: 2, sm: 3 }, px: { xs: 1.5, sm: 3 } }}
      >
        <Outlet />
      </Container>
    </Box>
  );
}
