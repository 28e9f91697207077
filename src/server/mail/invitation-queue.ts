import { createHash } from 'node:crypto';
import type { EventRow } from '../db/schema.ts';
import type { Tx } from '../db/transact.ts';
import { hitThrottle, type ThrottleRule } from '../lib/throttle.ts';
import { invitationMail } from './invitations.ts';
import { enqueueMails } from './outbox.ts';

/**
 * Every invitation queued to one address, however it was asked for (adding, editing the address,
 * importing, duplicating an event, "Reenviar invitación"), counts against this one rule, so that
 * removing and re-adding someone, or switching an address back and forth, cannot flood a mailbox.
 * Six an hour: the first invitation and the five re-sends that "Reenviar invitación" always allowed
 * (decision 0016).
 */
export const invitationsPerAddress: ThrottleRule = {
  scope: 'invitation-address',
  windowMs: 60 * 60 * 1000,
  max: 6,
};

/**
 * The counter's key: the address's SHA-256, so that the counters hold no address in clear (they
 * outlive an exhibitor's removal and an event's anonymisation until their hour has passed).
 */
export const invitationCounterKey = (email: string): string =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

/**
 * The one place that decides whether an event's invitation goes to an exhibitor: for each one, in
 * the caller's transaction, counts it against `invitationsPerAddress` and queues it when the
 * address has room this hour. Answers, in the order given, the queued message's id, or null when
 * the address's allowance is used up (nothing queued: the membership shows "no enviada" and the
 * invitation can be sent again later).
 *
 * Counted inside the transaction on purpose: an invitation counts only if it is really queued (a
 * change refused or rolled back spends nothing), and on PostgreSQL the counter's row stays locked
 * until the commit, so parallel requests to one address queue exactly as many as the rule allows.
 * Addresses are counted in sorted order, so two transactions never wait on each other's counters.
 * `beforeQueue` runs after the count and before anything is queued: a re-send withdraws the earlier
 * invitation there, once a parallel re-send to the address has committed (its counter held us).
 */
export async function queueInvitations(
  tx: Tx,
  now: Date,
  admin: { fullName: string },
  event: Pick<EventRow, 'id' | 'name' | 'vote_deadline' | 'voting_opens_at'>,
  exhibitors: readonly { id: string; email: string }[],
  beforeQueue?: (allowed: readonly boolean[]) => Promise<void>,
): Promise<(string | null)[]> {
  const counted = exhibitors
    .map((exhibitor, index) => ({ exhibitor, index, key: invitationCounterKey(exhibitor.email) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index));
  const allowed: typeof counted = [];
  for (const entry of counted) {
    if ((await hitThrottle(tx, invitationsPerAddress, entry.key, now)).allowed) allowed.push(entry);
  }
  allowed.sort((a, b) => a.index - b.index);
  if (beforeQueue) {
    const isAllowed: boolean[] = exhibitors.map(() => false);
    for (const { index } of allowed) isAllowed[index] = true;
    await beforeQueue(isAllowed);
  }
  const ids = await enqueueMails(
    tx,
    now,
    allowed.map(({ exhibitor }) => invitationMail(admin, event, exhibitor, now)),
  );
  const queued: (string | null)[] = exhibitors.map(() => null);
  allowed.forEach(({ index }, i) => (queued[index] = ids[i] ?? null));
  return queued;
}
