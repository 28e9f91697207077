import { Box, Container } from '@mui/material';
import { Outlet } from 'react-router';
import { TopBar } from './TopBar.tsx';

/** Signed-in screens: top bar above the page. */
export function AppLayout() {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <TopBar />
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
