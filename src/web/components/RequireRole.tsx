import { lazy, Suspense } from 'react';
import type { Role } from '../../shared/constants.ts';
import { activateProviders } from '../shell.tsx';

/**
 * The spinner shown while a screen or its data loads. Plain elements and the shell's stylesheet
 * (no MUI): it is also the first thing the router paints, before MUI has loaded.
 */
export function Loading() {
  return (
    <div className="shell-loading">
      <span className="shell-spinner" role="progressbar" aria-label="Cargando" />
    </div>
  );
}

// The check asks the session through TanStack Query: it loads with the providers.
const RoleGate = lazy(async () => {
  const [gate] = await Promise.all([import('./RoleGate.tsx'), activateProviders()]);
  return { default: gate.RoleGate };
});

/** Visitors without this role go to "/" (which sends them where they belong). */
export function RequireRole({ role }: { role: Role }) {
  return (
    <Suspense fallback={<Loading />}>
      <RoleGate role={role} />
    </Suspense>
  );
}
