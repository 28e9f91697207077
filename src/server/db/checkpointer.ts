import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * Moves SQLite's WAL checkpoints off the request thread. A checkpoint copies the log back into the
 * database file and syncs both; run by the writer itself (SQLite's default, every 1000 pages) it
 * took two thirds of each commit under the deadline rush. This thread's own connection checkpoints
 * in PASSIVE mode, which never blocks the writer; the writer keeps appending meanwhile. Past
 * 16 MB of log it makes the log start over (RESTART), and a log left at a burst's size is emptied
 * (TRUNCATE) once the database has been idle for a tick.
 *
 * The worker's source is inline so that it runs the same from the TypeScript sources and from the
 * server bundle; it needs nothing but node:sqlite.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const database = new DatabaseSync(workerData.file);
database.exec('PRAGMA busy_timeout = 50');
database.exec('PRAGMA journal_size_limit = ' + workerData.journalSizeLimit);
const pageSize = database.prepare('PRAGMA page_size').get().page_size;
const passive = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = database.prepare('PRAGMA wal_checkpoint(RESTART)');
const truncate = database.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
let previousLog = -1;
const checkpoint = () => {
  try {
    const { log, checkpointed } = passive.get();
    if (log > 0 && log === previousLog && checkpointed === log) {
      // Idle (nothing appended since the last tick) and all copied back: empty the file, so a
      // burst's log does not stay on disk at its peak size until the next restart.
      truncate.get();
      previousLog = 0;
    } else if (log * pageSize > workerData.restartAtBytes) {
      // Under a steady load readers always overlap and a passive checkpoint never lets the log
      // start over, so it grows without end: wait (briefly) for the readers, so the next commit
      // writes from the start of the file again.
      restart.get();
      previousLog = -1;
    } else {
      previousLog = log;
    }
  } catch {
    // Busy: a writer or reader holds on; the next tick tries again.
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  database.close();
  parentPort.close();
});
`;

/** The WAL file is cut back to this size whenever it is reset (SQLite's journal_size_limit). */
export const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;
/** Past this much log, the worker makes the log start over instead of only copying it back. */
const WAL_RESTART_AT_BYTES = 16 * 1024 * 1024;

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Starts checkpointing `file` every `intervalMs` on a worker thread. `onFailure` runs if the
 * worker dies, so the caller can hand checkpoints back to its own connection.
 */
export function startCheckpointer(
  file: string,
  intervalMs: number,
  onFailure: (error: Error) => void,
): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      intervalMs,
      journalSizeLimit: WAL_SIZE_LIMIT_BYTES,
      restartAtBytes: WAL_RESTART_AT_BYTES,
    },
  });
  worker.unref();
  let stopping = false;
  worker.on('error', (error) => {
    if (!stopping) onFailure(error instanceof Error ? error : new Error(String(error)));
  });
  const exited = once(worker, 'exit');
  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      worker.postMessage('stop');
      await exited;
    },
  };
}
