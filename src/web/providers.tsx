import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToastProvider } from './components/Toasts.tsx';
import { shouldRetry } from './lib/http.ts';
import { refreshSessionOf } from './lib/session.ts';
import { theme } from './theme.ts';

/** The web's query cache: every read follows the one retry rule (`shouldRetry`, lib/http.ts). */
export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
    },
  });

const queryClient = createQueryClient();

/** The providers of every screen but the first sign-in steps (loaded on demand by ./shell.tsx). */
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
