import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { RenderedMail } from './layout.ts';

type RenderDeps = Pick<AppDeps, 'db' | 'config' | 'clock'>;

/**
 * Why a message was withdrawn unsent, as its outbox row records it (`cancel_reason`):
 * - `complete`: an early reminder to an exhibitor whose lists are full;
 * - `voting_closed`: the event's voting had ended when the reminder came to be sent;
 * - `closed_early`: "Cerrar votación ahora" withdrew it;
 * - `archived`: the event is archived;
 * - `draft`: the event's voting has not opened yet ("Apertura de la votación" moved later);
 * - `not_member`: the exhibitor left the event (or the event is gone);
 * - `not_invited`: the exhibitor was added without an invitation and has not been invited since;
 * - `too_late`: its moment passed more than 12 hours ago (the server was down): it would arrive late;
 * - `unwanted`: the template answered that it no longer needs sending, without a reason.
 */
export type MailCancelReason =
  | 'complete'
  | 'voting_closed'
  | 'closed_early'
  | 'archived'
  | 'draft'
  | 'not_member'
  | 'not_invited'
  | 'too_late'
  | 'unwanted';

/** A template's answer for a message that no longer needs sending: withdrawn, never retried. */
export interface SkippedMail {
  skipped: MailCancelReason;
}

/** What the worker knows of the message it renders besides its parameters. */
export interface QueuedMessage {
  /** When the change that caused it queued it. */
  createdAt: Date;
}

type Rendered = Promise<RenderedMail | SkippedMail | null> | RenderedMail | SkippedMail | null;

/** A queued message whose stored parameters do not fit its template: sending it again cannot help. */
export class UnreadableMailParams extends Error {}

/**
 * A message is rendered when the worker sends it, so it can read current data (reminders) and check
 * that it should still go out. A template may answer null or `{ skipped }`: the message no longer
 * needs sending and is withdrawn, with its reason. Its parameters have one schema: what is queued
 * is typed by it, and what the worker reads back is parsed by it, never cast.
 */
export interface MailTemplate<Params> {
  params: z.ZodType<Params>;
  render(params: Params, deps: RenderDeps, message: QueuedMessage): Rendered;
  /** Renders from the stored JSON text; throws UnreadableMailParams when it does not fit. */
  renderStored(storedParams: string, deps: RenderDeps, message: QueuedMessage): Rendered;
}

/** Stored JSON text as a value, or undefined when it is not JSON at all. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function mailTemplate<Params>(
  definition: Pick<MailTemplate<Params>, 'params' | 'render'>,
): MailTemplate<Params> {
  return {
    ...definition,
    renderStored(storedParams, deps, message) {
      const parsed = definition.params.safeParse(parseJson(storedParams));
      if (!parsed.success) throw new UnreadableMailParams('the stored parameters do not fit');
      return definition.render(parsed.data, deps, message);
    },
  };
}

/** The parameters of a stored message through a template's schema, or undefined. */
export function readMailParams<Params>(
  schema: z.ZodType<Params>,
  storedParams: string,
): Params | undefined {
  const parsed = schema.safeParse(parseJson(storedParams));
  return parsed.success ? parsed.data : undefined;
}
