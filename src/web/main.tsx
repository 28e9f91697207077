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
// What the server sent stays as it is until the first screen's code (and its loader) is in:
// signin.html's form, so that React replaces it with the same screen, never with the loading
// spinner in between; index.html's logo, so that the browser counts that first paint as the
// page's largest one (replaced within a frame of painting, Chrome often drops it, and a phone's
// LCP became whichever later text was largest) and the main thread draws no spinner meanwhile.
if (!router.state.initialized) {
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    unsubscribe();
    start();
  });
} else {
  start();
}
