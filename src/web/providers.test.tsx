import { describe, expect, it } from 'vitest';
import { ApiError } from './lib/http.ts';
import { createQueryClient } from './providers.tsx';

/** How many times the web's query cache calls a read that always fails with `error`. */
async function callsOfFailingRead(error: Error): Promise<number> {
  let calls = 0;
  const read = createQueryClient().fetchQuery({
    queryKey: ['failing', error.message],
    queryFn: () => {
      calls += 1;
      throw error;
    },
    // The rule says whether to ask again; the wait before asking is not what is tested.
    retryDelay: 0,
  });
  await expect(read).rejects.toBe(error);
  return calls;
}

describe("the web's query cache follows the one retry rule", () => {
  it('asks a read again once after a server error or no answer', async () => {
    expect(
      await callsOfFailingRead(new ApiError(500, 'internal_error', 'Ha ocurrido un error.')),
    ).toBe(2);
    expect(await callsOfFailingRead(new ApiError(0, 'network_error', 'Sin conexión'))).toBe(2);
  });

  it('never asks again after a client error', async () => {
    expect(
      await callsOfFailingRead(new ApiError(404, 'not_found', 'No se econtró el evento')),
    ).toBe(1);
    expect(await callsOfFailingRead(new ApiError(403, 'forbidden', 'No autorizado'))).toBe(1);
  });
});
