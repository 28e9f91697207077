import { Navigate, Outlet, useLocation } from 'react-router';
import type { Role } from '../../shared/constants.ts';
import { useCurrentUser } from '../lib/session.ts';
import { Loading } from './RequireRole.tsx';

const SECURITY_PATH = '/admin/security';

/** RequireRole's check, loaded with TanStack Query. */
export function RoleGate({ role }: { role: Role }) {
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
