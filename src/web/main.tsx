import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './router.tsx';
import { Shell } from './shell.tsx';
import './shell.css';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
createRoot(root).render(
  <StrictMode>
    <Shell>
      <RouterProvider router={router} />
    </Shell>
  </StrictMode>,
);
