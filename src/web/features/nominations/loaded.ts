import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { shouldRetry } from '../../lib/http.ts';
import type { Prefetched } from '../../lib/prefetch.ts';

/*
 * How the exhibitor's screens load their one answer each (./data.ts, ./my-events.ts), in a module
 * of its own so that "Mis eventos" loads it without the nomination screen's contract.
 */

/** An answer being loaded: `data` once it came, `error` if it failed (after one retry). */
export interface Loaded<Data> {
  data: Data | undefined;
  error: unknown;
  isPending: boolean;
}

/** `load(first)`: `first` is true for the first try only; the retry asks the server again. */
async function withOneRetry<Data>(load: (first: boolean) => Promise<Data>): Promise<Data> {
  try {
    return await load(true);
  } catch (error) {
    if (!shouldRetry(0, error)) throw error;
    return load(false);
  }
}

/**
 * `load(prefetched)` reads the answer; `prefetched`, the request the route's loader started
 * (routes/exh/loaders.ts), is handed to the first load only: every later one asks again.
 */
export function useLoaded<Data>(
  load: (prefetched: Prefetched | undefined) => Promise<Data>,
  key: string,
  prefetched: Prefetched | undefined,
) {
  const [state, setState] = useState<Loaded<Data> & { key: string }>({
    data: undefined,
    error: null,
    isPending: true,
    key,
  });
  const latest = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  const unread = useRef(prefetched);
  // The request is the same as long as `key` is.
  const reload = useCallback(async () => {
    const request = ++latest.current;
    const started = unread.current;
    unread.current = undefined;
    let next: Loaded<Data>;
    try {
      next = {
        data: await withOneRetry((first) => loader.current(first ? started : undefined)),
        error: null,
        isPending: false,
      };
    } catch (error) {
      next = { data: undefined, error, isPending: false };
    }
    // Drawn as a transition: React renders the screen in slices and a phone's main thread stays
    // free for input (the budget's total blocking time).
    if (request === latest.current) startTransition(() => setState({ ...next, key }));
  }, [key]);
  useEffect(() => {
    void reload();
  }, [reload]);
  // Another event's answer is not this one's: pending until this one's comes.
  const current: Loaded<Data> =
    state.key === key ? state : { data: undefined, error: null, isPending: true };
  return { ...current, reload, setState };
}
