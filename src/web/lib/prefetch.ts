/**
 * A GET request started by a route's loader, as soon as the route matches, while the screen's
 * code (and the contract with its schemas) still loads: without it the request would start only
 * once that code had loaded and drawn the screen. This module is in the first load, so it imports
 * nothing; `call` (./http.ts) checks and parses the answer once the screen asks for it.
 */
export interface Prefetched {
  /** The URL requested: `call` uses the answer only for the same URL. */
  url: string;
  /** Read whole, so that more than one reader (React's strict effects, a retry) can use it. */
  answer: Promise<{ status: number; text: string }>;
}

export function prefetch(url: string): Prefetched {
  const answer = fetch(url, {
    headers: { 'x-requested-with': 'premios' },
    credentials: 'same-origin',
  }).then(async (response) => ({ status: response.status, text: await response.text() }));
  // A network failure is the reader's to report; nobody may read it (the visitor is sent away).
  answer.catch(() => undefined);
  return { url, answer };
}
