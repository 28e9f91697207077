import { Box, CircularProgress } from '@mui/material';
import { Navigate, Outlet, useLocation } from 'react-router';
import type { Role } from '../../shared/constants.ts';
import { useCurrentUser } from '../lib/session.ts';

export function Loading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
      <CircularProgress aria-label="Cargando" />
    </Box>
  );
}

const SECURITY_PATH = '/admin/security';

/** Visitors without this role go to "/" (which sends them where they belong). */
export function RequireRole({ role }: { role: Role }) {
  const { user } = useCurrentUser();
  const { pathname } = useLocation();
  if (user === undefined) return <Loading />;
  if (!user || user.role !== role) return <Navigate to="/" replace />;
  // REQUIRE_ADMIN_MFA: until the second factor is on, "Seguridad" is the only page (the server
  // refuses every other administrator call anyway).
  if (user.mfaSetupRequired && pathname !== SECURITY_PATH) {
    return <Navigate to={SECURITY_PATH} replace />;
  }
  return <Outlet />;
}
