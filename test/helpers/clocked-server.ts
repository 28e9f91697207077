/**
 * Runs the server bundle with its clock started at PREMIOS_TEST_NOW: end-to-end tests cross
 * deadlines without waiting. Usage: `node test/helpers/clocked-server.ts <dist/server/main.js>`.
 * The production entry knows nothing of this variable; only this test entry reads it.
 */
import { pathToFileURL } from 'node:url';
import { clockStartingAt } from './clock.ts';

const [bundle] = process.argv.slice(2);
const start = process.env.PREMIOS_TEST_NOW;
if (!bundle || !start) {
  throw new Error('usage: PREMIOS_TEST_NOW=<ISO instant> node clocked-server.ts <server bundle>');
}
const server = (await import(
  pathToFileURL(bundle).href
)) as typeof import('../../src/server/main.ts');
await server.start({ clock: clockStartingAt(start) });
