import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToastProvider } from './components/Toasts.tsx';
import { refreshSessionOf } from './lib/session.ts';
import { theme } from './theme.ts';

/** The providers of every screen but the first sign-in steps (loaded on demand by ./shell.tsx). */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false },
  },
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <ToastProvider>{children}</ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}

/** After signing in: reload the session and drop every cached answer of the old one. */
export const refreshSession = () => refreshSessionOf(queryClient);
