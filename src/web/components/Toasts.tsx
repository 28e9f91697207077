import { Alert, Snackbar } from '@mui/material';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

type Severity = 'success' | 'error' | 'info' | 'warning';

interface Toast {
  id: number;
  message: string;
  severity: Severity;
  durationMs: number;
}

type ShowToast = (message: string, options?: { severity?: Severity; durationMs?: number }) => void;

const ToastContext = createContext<ShowToast>(() => undefined);

/** One toast at a time, queued; `durationMs` is how long it stays (the delete failure: 3 s). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Toast[]>([]);
  const show = useCallback<ShowToast>((message, options) => {
    setQueue((current) => [
      ...current,
      {
        id: Date.now() + Math.random(),
        message,
        severity: options?.severity ?? 'success',
        durationMs: options?.durationMs ?? 4000,
      },
    ]);
  }, []);
  const current = queue[0];
  const close = () => setQueue((items) => items.slice(1));
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <Snackbar
        key={current?.id}
        open={Boolean(current)}
        autoHideDuration={current?.durationMs ?? null}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') close();
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        {current ? (
          <Alert
            severity={current.severity}
            variant="filled"
            onClose={close}
            sx={{ width: '100%' }}
          >
            {current.message}
          </Alert>
        ) : undefined}
      </Snackbar>
    </ToastContext.Provider>
  );
}

export const useToast = (): ShowToast => useContext(ToastContext);
