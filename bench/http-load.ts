import http from 'node:http';

/** A small keep-alive HTTP client, the same for every measure so that ratios compare like with like. */
export interface Reply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

class ReusedSocketClosed extends Error {}

export function createClient(baseUrl: string, maxSockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const { hostname, port } = new URL(baseUrl);
  return {
    request(
      method: string,
      path: string,
      options: { body?: unknown; headers?: Record<string, string> } = {},
    ): Promise<Reply> {
      const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
      const send = (): Promise<Reply> =>
        new Promise((resolve, reject) => {
          const req = http.request(
            {
              agent,
              hostname,
              port,
              method,
              path,
              headers: {
                'x-requested-with': 'premios',
                ...(payload
                  ? {
                      'content-type': 'application/json',
                      'content-length': Buffer.byteLength(payload),
                    }
                  : {}),
                ...options.headers,
              },
            },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (chunk: Buffer) => chunks.push(chunk));
              res.on('end', () =>
                resolve({
                  status: res.statusCode ?? 0,
                  body: Buffer.concat(chunks).toString('utf8'),
                  headers: res.headers,
                }),
              );
              res.on('error', reject);
            },
          );
          req.on('error', (error: NodeJS.ErrnoException) =>
            // The server closed a kept-alive connection as this request was sent on it (its idle
            // timeout, when a client waited longer than that for a mail): it never read the
            // request, which goes again on a new connection, as Node's documentation advises.
            reject(
              req.reusedSocket && error.code === 'ECONNRESET' ? new ReusedSocketClosed() : error,
            ),
          );
          if (payload) req.write(payload);
          req.end();
        });
      return send().catch((error: unknown) =>
        error instanceof ReusedSocketClosed ? send() : Promise.reject(error),
      );
    },
    close: () => agent.destroy(),
  };
}

export interface LoadStats {
  latencies: number[];
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export function summarize(latencies: number[], errors: number, seconds: number): LoadStats {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    latencies,
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

/** Figures of several runs taken as one: their requests over their summed durations. */
export function combine(runs: LoadStats[]): LoadStats {
  return summarize(
    runs.flatMap((run) => run.latencies),
    runs.reduce((sum, run) => sum + run.errors, 0),
    runs.reduce((sum, run) => sum + run.seconds, 0),
  );
}

/** Runs `task` from `concurrency` workers until `total` tasks have run; times each one. */
export async function runPool(
  concurrency: number,
  total: number,
  task: (index: number) => Promise<boolean>,
): Promise<LoadStats> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const index = next++;
        if (index >= total) return;
        const t0 = performance.now();
        const ok = await task(index).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors += 1;
      }
    }),
  );
  return summarize(latencies, errors, (performance.now() - started) / 1000);
}
