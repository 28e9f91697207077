import { useSyncExternalStore, type ComponentType, type ReactNode } from 'react';

/**
 * The app's first load is React, the router and this shell: enough for the sign-in steps, which
 * are written with plain elements and the shell's stylesheet. MUI (theme, baseline, toasts) and
 * TanStack Query are the providers of every other screen; they load with the first such screen
 * (`activateProviders`, called by the router) and from then on wrap the whole app.
 */
type Providers = ComponentType<{ children: ReactNode }>;

let loading: Promise<typeof import('./providers.tsx')> | undefined;
let active: Providers | null = null;
const listeners = new Set<() => void>();

const loadProviders = () => (loading ??= import('./providers.tsx'));

/** Loads the providers and wraps the app in them (once); resolves when they are in place. */
export async function activateProviders(): Promise<void> {
  const { Providers } = await loadProviders();
  if (active) return;
  active = Providers;
  for (const listener of listeners) listener();
}

/**
 * After signing in: drops every cached answer of the previous visitor and asks the session again.
 * Nothing to do while the providers have not loaded: there is no cache yet.
 */
export async function refreshSession(): Promise<void> {
  if (!active) return;
  const { refreshSession: refresh } = await loadProviders();
  await refresh();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/**
 * Renders the app bare until the providers are active, then inside them. Switching remounts the
 * tree below once; it happens while the router waits for the first MUI screen, before it shows.
 */
export function Shell({ children }: { children: ReactNode }) {
  const Active = useSyncExternalStore(
    subscribe,
    () => active,
    () => null,
  );
  return Active ? <Active>{children}</Active> : children;
}
