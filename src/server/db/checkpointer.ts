import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * Moves SQLite's WAL checkpoints off the request thread. A checkpoint copies the log back into the
 * database file and syncs both; run by the writer itself (SQLite's default, every 1000 pages) it
 * took two thirds of each commit under the deadline rush. This thread's own connection checkpoints
 * in PASSIVE mode, which never blocks the writer; the writer keeps appending meanwhile. It reports
 * each result, so that the writer can empty a fully copied log (see `shouldTruncate`).
 *
 * The worker's source is inline so that it runs the same from the TypeScript sources and from the
 * server bundle; it needs nothing but node:sqlite.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const database = new DatabaseSync(workerData.file);
const pageSize = database.prepare('PRAGMA page_size').get().page_size;
const passive = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const checkpoint = () => {
  try {
    const { log, checkpointed } = passive.get();
    parentPort.postMessage({ logBytes: log * pageSize, copied: log === checkpointed });
  } catch {
    // Busy: the next tick tries again.
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

/** What one passive checkpoint found: the log's size, and whether all of it is copied back. */
export interface CheckpointReport {
  logBytes: number;
  copied: boolean;
}

/**
 * When the writer's own connection should empty the log (TRUNCATE): everything is copied back, and
 * either nothing was appended since the previous report (idle) or the log is past the size limit.
 * Only the writer may do it: from another connection, a checkpoint that waits for readers holds
 * the write lock, and the writer, already reading inside its transaction, is refused ("database
 * is locked") instead of waiting.
 */
export function shouldTruncate(report: CheckpointReport, previous: CheckpointReport | null) {
  if (!report.copied || report.logBytes === 0) return false;
  return report.logBytes === previous?.logBytes || report.logBytes > WAL_SIZE_LIMIT_BYTES;
}

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
  onReport: (report: CheckpointReport) => void = () => undefined,
): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, intervalMs },
  });
  worker.unref();
  worker.on('message', (report: CheckpointReport) => onReport(report));
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
