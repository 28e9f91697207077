import { Box, Button, Paper } from '@mui/material';
import { Link as RouterLink, Navigate } from 'react-router';
import { Loading } from '../components/RequireRole.tsx';
import { useCurrentUser } from '../lib/session.ts';

export default function Landing() {
  const { user } = useCurrentUser();
  if (user === undefined) return <Loading />;
  if (user?.role === 'exh') return <Navigate to="/exh" replace />;
  if (user?.role === 'admin') return <Navigate to="/admin" replace />;
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
      <Paper sx={{ p: { xs: 3, sm: 6 }, textAlign: 'center', width: '100%', maxWidth: 440 }}>
        <h1 style={{ margin: 0 }}>
          <Box
            component="img"
            src="/api/logo"
            alt="Logo"
            sx={{ maxWidth: '100%', height: 96, objectFit: 'contain' }}
          />
        </h1>
        <Button
          component={RouterLink}
          to="/signin"
          variant="contained"
          size="large"
          sx={{ mt: 4, minWidth: 200 }}
        >
          Ingresar
        </Button>
      </Paper>
    </Box>
  );
}
