import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { RenderedMail } from './layout.ts';

type RenderDeps = Pick<AppDeps, 'db' | 'config'>;
type Rendered = Promise<RenderedMail | null> | RenderedMail | null;

/** A queued message whose stored parameters do not fit its template: sending it again cannot help. */
export class UnreadableMailParams extends Error {}

/**
 * A message is rendered when the worker sends it, so it can read current data (reminders). A
 * template may answer null: the message no longer needs sending (an exhibitor who completed their
 * lists before an early reminder) and is withdrawn. Its parameters have one schema: what is queued
 * is typed by it, and what the worker reads back is parsed by it, never cast.
 */
export interface MailTemplate<Params> {
  params: z.ZodType<Params>;
  render(params: Params, deps: RenderDeps): Rendered;
  /** Renders from the stored JSON text; throws UnreadableMailParams when it does not fit. */
  renderStored(storedParams: string, deps: RenderDeps): Rendered;
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
    renderStored(storedParams, deps) {
      const parsed = definition.params.safeParse(parseJson(storedParams));
      if (!parsed.success) throw new UnreadableMailParams('the stored parameters do not fit');
      return definition.render(parsed.data, deps);
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
