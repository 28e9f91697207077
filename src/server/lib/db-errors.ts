/** True for a unique or primary-key violation on either engine (a lost race on a unique row). */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === '23505') return true;
  return (
    typeof message === 'string' &&
    /UNIQUE constraint failed|PRIMARY KEY constraint failed/.test(message)
  );
}

/**
 * PostgreSQL gave up one of two transactions that waited on each other (deadlock, serialization
 * failure). The loser's transaction was rolled back whole, so nothing of it was stored.
 */
export function isTransactionConflict(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code } = error as { code?: unknown };
  return code === '40P01' || code === '40001';
}
