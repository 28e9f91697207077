import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Loading, RequireRole } from './components/RequireRole.tsx';
import { RouteError } from './components/RouteError.tsx';
import {
  exhLayoutLoader,
  myEventsLoader,
  nominationLoader,
  onArrivalOnly,
} from './routes/exh/loaders.ts';
import { activateProviders } from './shell.tsx';

/**
 * Every screen's code is loaded on demand, so the first screen a visitor opens stays small; with
 * it, the first time, MUI and TanStack Query (./shell.tsx).
 */
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => {
  const [{ default: Component }] = await Promise.all([load(), activateProviders()]);
  return { Component };
};
/**
 * The first sign-in steps and the exhibitor's screens, written without MUI or TanStack Query: they
 * show without them.
 */
const plainScreen = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

export const routes = [
  { path: '/', lazy: screen(() => import('./routes/Landing.tsx')) },
  { path: '/signin', lazy: plainScreen(() => import('./routes/signin/SignInEmail.tsx')) },
  { path: '/signin/code', lazy: plainScreen(() => import('./routes/signin/SignInCode.tsx')) },
  { path: '/signin/link', lazy: screen(() => import('./routes/signin/SignInLink.tsx')) },
  { path: '/signin/admin', lazy: screen(() => import('./routes/signin/SignInAdmin.tsx')) },
  { path: '/signin/mfa', lazy: screen(() => import('./routes/signin/SignInMfa.tsx')) },
  { path: '/signin/newadmin', lazy: screen(() => import('./routes/signin/NewAdmin.tsx')) },
  {
    path: '/signin/resetpassword',
    lazy: screen(() => import('./routes/signin/ResetPassword.tsx')),
  },
  {
    path: '/admin',
    element: <RequireRole role="admin" loadProviders={activateProviders} />,
    children: [
      {
        lazy: screen(() => import('./routes/AppLayout.tsx')),
        children: [
          { index: true, lazy: screen(() => import('./routes/admin/EventsList.tsx')) },
          { path: 'admins', lazy: screen(() => import('./routes/admin/AdminsPage.tsx')) },
          { path: 'security', lazy: screen(() => import('./routes/admin/SecurityPage.tsx')) },
          { path: 'resellers', lazy: screen(() => import('./routes/admin/RegistryPage.tsx')) },
          {
            path: 'event/:eventId',
            lazy: screen(() => import('./routes/admin/EventLayout.tsx')),
            children: [
              { index: true, element: <Navigate to="exhibitors" replace /> },
              {
                path: 'exhibitors',
                lazy: screen(() => import('./routes/admin/ExhibitorsTab.tsx')),
              },
              {
                path: 'participation',
                lazy: screen(() => import('./routes/admin/ParticipationTab.tsx')),
              },
              {
                path: 'categories',
                lazy: screen(() => import('./routes/admin/CategoriesTab.tsx')),
              },
              {
                path: 'integrity',
                lazy: screen(() => import('./routes/admin/IntegrityTab.tsx')),
              },
              {
                path: 'history',
                lazy: screen(() => import('./routes/admin/HistoryTab.tsx')),
              },
              {
                path: ':category',
                lazy: screen(() => import('./routes/admin/CategoryRanking.tsx')),
              },
            ],
          },
          {
            path: 'event/:eventId/nominee',
            lazy: screen(() => import('./routes/admin/NomineeVotes.tsx')),
          },
          {
            path: 'event/:eventId/exhibitors/:exhId',
            lazy: screen(() => import('./routes/admin/ExhibitorVotes.tsx')),
          },
        ],
      },
      // "Vista previa" is the exhibitor's screen in the exhibitor's frame: outside the app's layout.
      {
        path: 'event/:eventId/preview',
        lazy: screen(() => import('./routes/admin/EventPreview.tsx')),
      },
      // The ceremony screen fills the window: outside the app's layout.
      {
        path: 'event/:eventId/present/:category',
        lazy: screen(() => import('./routes/admin/PresentRanking.tsx')),
      },
    ],
  },
  // The exhibitor's screens are plain too: an exhibitor opens them on a phone (decision 0009).
  // Their layout checks the role itself. Their loaders start the requests of their first draw
  // while their code loads.
  {
    path: '/exh',
    loader: exhLayoutLoader,
    shouldRevalidate: onArrivalOnly,
    lazy: plainScreen(() => import('./routes/exh/ExhLayout.tsx')),
    children: [
      {
        index: true,
        loader: myEventsLoader,
        shouldRevalidate: onArrivalOnly,
        lazy: plainScreen(() => import('./routes/exh/MyEvents.tsx')),
      },
      {
        path: 'event/:eventId',
        loader: nominationLoader,
        shouldRevalidate: onArrivalOnly,
        lazy: plainScreen(() => import('./routes/exh/NominationScreen.tsx')),
      },
    ],
  },
  { path: '*', lazy: screen(() => import('./routes/NotFound.tsx')) },
];

/**
 * The first screen's code loads under the page the server sent (./main.tsx); the spinner shows if
 * the router is ever drawn before that. A screen that fails (its code could not be fetched) shows
 * RouteError in its place.
 */
export const router = createBrowserRouter([
  { HydrateFallback: Loading, ErrorBoundary: RouteError, children: routes },
]);
