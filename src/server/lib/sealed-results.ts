import type { Db } from '../db/connection.ts';
import type { EventRow } from '../db/schema.ts';
import type { AppDeps } from '../deps.ts';
import { calendarOf, hasVotingEnded } from './event-calendar.ts';
import { AppError } from './errors.ts';

type SealColumns = Pick<
  EventRow,
  | 'seal_results'
  | 'results_viewed_at'
  | 'vote_deadline'
  | 'close_time'
  | 'time_zone'
  | 'voting_opens_at'
  | 'voting_closed_at'
>;

/**
 * Whether the event's results are sealed at `now` (docs/decisions/0036): it chose "Ocultar
 * resultados hasta el cierre", its voting has not ended (its own closing hour in its zone, or
 * "Cerrar votación ahora"; a draft has not ended either) and no administrator opened them early.
 */
export function resultsSealedAt(row: SealColumns, appTimeZone: string, now: Date): boolean {
  return (
    row.seal_results === 1 &&
    row.results_viewed_at === null &&
    !hasVotingEnded(calendarOf(row, appTimeZone), now)
  );
}

/**
 * 409 "Los resultados están ocultos hasta el cierre de la votación." while the event's results
 * are sealed; every endpoint marked `showsResults` asks before its handler runs. A missing event
 * passes: the handler's own lookup answers its 404.
 */
export async function refuseSealedResults(
  deps: Pick<AppDeps, 'clock' | 'config'> & { db: Db },
  eventId: string,
): Promise<void> {
  const event = await deps.db
    .selectFrom('events')
    .select([
      'seal_results',
      'results_viewed_at',
      'vote_deadline',
      'close_time',
      'time_zone',
      'voting_opens_at',
      'voting_closed_at',
    ])
    .where('id', '=', eventId)
    .executeTakeFirst();
  if (event && resultsSealedAt(event, deps.config.timeZone, deps.clock.now())) {
    throw new AppError('results_sealed');
  }
}

/**
 * The events whose results are sealed now: a count of nominations across events (the registry's
 * "Nominaciones") leaves theirs out, so that it cannot hint at a sealed vote.
 */
export async function sealedEventIds(
  deps: Pick<AppDeps, 'clock' | 'config'>,
  db: Db,
): Promise<string[]> {
  const candidates = await db
    .selectFrom('events')
    .select([
      'id',
      'seal_results',
      'results_viewed_at',
      'vote_deadline',
      'close_time',
      'time_zone',
      'voting_opens_at',
      'voting_closed_at',
    ])
    .where('seal_results', '=', 1)
    .where('results_viewed_at', 'is', null)
    .execute();
  const now = deps.clock.now();
  return candidates
    .filter((event) => resultsSealedAt(event, deps.config.timeZone, now))
    .map((event) => event.id);
}
