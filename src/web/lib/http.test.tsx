import { describe, expect, it } from 'vitest';
import { ApiError, shouldRetry } from './http.ts';

describe('shouldRetry: the one retry rule of the web reads', () => {
  it('asks again once after a server error or no answer, never after a client error', () => {
    const serverError = new ApiError(500, 'internal_error', 'Ha ocurrido un error.');
    const offline = new ApiError(0, 'network_error', 'Sin conexión');
    const missing = new ApiError(404, 'not_found', 'No se econtró el evento');
    expect(shouldRetry(0, serverError)).toBe(true);
    expect(shouldRetry(0, offline)).toBe(true);
    expect(shouldRetry(0, new Error('fetch failed'))).toBe(true);
    expect(shouldRetry(1, serverError)).toBe(false);
    expect(shouldRetry(0, missing)).toBe(false);
    expect(shouldRetry(0, new ApiError(409, 'stale_list', 'x'))).toBe(false);
  });
});
