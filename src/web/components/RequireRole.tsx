import { lazy, Suspense } from 'react';
import type { Role } from '../../shared/constants.ts';

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

/** Loads what RoleGate's check needs: the providers (TanStack Query), which the router owns. */
type LoadProviders = () => Promise<void>;

// The check asks the session through TanStack Query: it loads with the providers, made once.
let roleGate: ReturnType<typeof lazyRoleGate> | undefined;
const lazyRoleGate = (loadProviders: LoadProviders) =>
  lazy(async () => {
    const [gate] = await Promise.all([import('./RoleGate.tsx'), loadProviders()]);
    return { default: gate.RoleGate };
  });

/**
 * Visitors without this role go to "/" (which sends them where they belong). `loadProviders` is
 * handed in by the router (the shell's `activateProviders`): components never import the shell.
 */
export function RequireRole({ role, loadProviders }: { role: Role; loadProviders: LoadProviders }) {
  const RoleGate = (roleGate ??= lazyRoleGate(loadProviders));
  return (
    <Suspense fallback={<Loading />}>
      <RoleGate role={role} />
    </Suspense>
  );
}
