import { Navigate, Outlet } from 'react-router';
import type { Role } from '../../shared/constants.ts';
import { useCurrentUser } from '../lib/session.ts';
import { Loading } from './RequireRole.tsx';

/** RequireRole's check, loaded with TanStack Query. */
export function RoleGate({ role }: { role: Role }) {
  const { user } = useCurrentUser();
  if (user === undefined) return <Loading />;
  if (!user || user.role !== role) return <Navigate to="/" replace />;
  return <Outlet />;
}
