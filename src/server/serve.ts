import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { systemClock, type Clock } from './lib/clock.ts';

export interface ServeOptions {
  /** The time source of every rule; the wall clock unless a caller (a test) brings its own. */
  clock?: Clock;
}

async function listen(options: ServeOptions): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const database = openDatabase(config.databaseUrl, { backgroundCheckpoints: true });
  await database.migrate();
  const { app } = await buildApp({
    config,
    database,
    clock: options.clock ?? systemClock,
    startMailWorker: true,
  });
  app.addHook('onClose', async () => database.close());

  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down: finishing requests');
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  await app.listen({ port: config.port, host: config.host });
}

/** Reads the configuration, migrates, serves until SIGTERM; a failure to start ends the process. */
export async function serve(options: ServeOptions = {}): Promise<void> {
  await listen(options).catch((error: unknown) => {
    process.stderr.write(
      `No se pudo iniciar: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
