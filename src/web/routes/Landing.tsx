import { Button } from '@mui/material';
import { Link as RouterLink, Navigate } from 'react-router';
import { PublicFrame, PublicLogo } from '../components/PublicFrame.tsx';
import { Loading } from '../components/RequireRole.tsx';
import { useCurrentUser } from '../lib/session.ts';

export default function Landing() {
  const { user } = useCurrentUser();
  if (user === undefined) return <Loading />;
  if (user?.role === 'exh') return <Navigate to="/exh" replace />;
  if (user?.role === 'admin') return <Navigate to="/admin" replace />;
  return (
    <PublicFrame padding={6} centered>
      <h1 style={{ margin: 0 }}>
        <PublicLogo height={96} />
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
    </PublicFrame>
  );
}
