/**
 * The messages a screen must be able to show when the app's own code cannot be fetched (a phone
 * that lost its connection): they ship with the first screen's code, not with the catalogue
 * (./messages.ts), which is itself fetched on demand. The catalogue includes them.
 */
export const OFFLINE_MSG = {
  genericError: 'Ha ocurrido un error',
  genericErrorDot: 'Ha ocurrido un error.',
  connectionLost: 'No se pudo conectar con el servidor. Revise su conexión e inténtelo de nuevo.',
} as const;
