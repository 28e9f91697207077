import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './router.tsx';
import { Shell } from './shell.tsx';
import './shell.css';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
const start = () =>
  createRoot(root).render(
    <StrictMode>
      <Shell>
        <RouterProvider router={router} />
      </Shell>
    </StrictMode>,
  );
// A page sent already drawn (signin.html) stays as it is until its screen's code has loaded, so
// that React replaces it with the same screen, never with the loading spinner in between.
if (root.querySelector('[data-prerendered]') && !router.state.initialized) {
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    unsubscribe();
    start();
  });
} else {
  start();
}
