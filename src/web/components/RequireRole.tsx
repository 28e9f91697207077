import { Box, CircularProgress } from '@mui/material';
import { Navigate, Outlet } from 'react-router';
import type { Role } from '../../shared/constants.ts';
import { useCurrentUser } from '../lib/session.ts';

export function Loading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
      <CircularProgress aria-label="Cargando" />
    </Box>
  );
}

/** Visitors without this role go to "/" (which sends them where they belong). */
export function RequireRole({ role }: { role: Role }) {
  const { user } = useCurrentUser();
  if (user === undefined) return <Loading />;
  if (!user || user.role !== role) return <Navigate to="/" replace />;
  return <Outlet />;
}
