import type { FastifyReply, FastifyRequest } from 'fastify';
import { z, type ZodType } from 'zod';
import {
  reads,
  writesToEvent,
  type Access,
  type Endpoint,
  type HttpMethod,
  type JsonResponse,
  type ResponseSpec,
} from '../../shared/api/define.ts';
import { isCatalogueMessage } from '../../shared/errors.ts';
import { MSG } from '../../shared/messages.ts';
import type { SignedInAdmin, SignedInExhibitor } from '../../shared/signed-in.ts';
import type { AppDeps } from '../deps.ts';
import {
  refuseArchivedEvent,
  transactOnOpenEvent,
  transactUnderArchiveLock,
} from '../lib/archived.ts';
import { AppError, forbidden, notFound, unauthorized } from '../lib/errors.ts';
import { refuseSealedResults } from '../lib/sealed-results.ts';
import { findSessionUser, mustSetUpMfa, sessionToken, type SessionUser } from './session.ts';
import { zodFields } from './errors.ts';
import { refuseUnknownCategory } from '../lib/event-categories.ts';

/** The user a handler receives, by the endpoint's access. */
interface UserByAccess {
  public: SessionUser | null;
  signedIn: SessionUser;
  admin: SignedInAdmin;
  exhibitor: SignedInExhibitor;
}

const guards: { [A in Access]: (user: SessionUser | null) => UserByAccess[A] } = {
  public: (user) => user,
  signedIn: (user) => {
    if (!user) throw unauthorized();
    return user;
  },
  admin: (user) => {
    if (!user) throw unauthorized();
    if (user.role !== 'admin') throw forbidden();
    return user;
  },
  exhibitor: (user) => {
    if (!user) throw unauthorized();
    if (user.role !== 'exh') throw forbidden();
    return user;
  },
};

export interface HandlerContext<
  A extends Access,
  P extends ZodType,
  Q extends ZodType,
  B extends ZodType,
> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  user: UserByAccess[A];
  deps: AppDeps;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * What a handler returns: the value its response schema accepts for a JSON endpoint (anything
 * else does not compile), the reply it has sent for a file.
 */
export type HandlerResult<R extends ResponseSpec> =
  R extends JsonResponse<infer S> ? z.input<S> : FastifyReply;

export interface RateLimit {
  max: number;
  timeWindow: string;
}

export interface ImplementOptions {
  rateLimit?: RateLimit;
  /**
   * For a write to an event whose handler writes only through one `transact` whose work refuses an
   * archived event itself (409 "El evento está archivado", under the archive lock this route's
   * `transact` takes): the archive is then not read before the handler, only after a failure, so
   * that the answer on an archived event stays 409 whatever else is wrong with the request. Saves
   * the busiest write (an exhibitor's save) a statement and a wait for the connection.
   */
  archiveCheckedInTransaction?: boolean;
}

/** What a one-statement handler answers when it did not settle the request's session. */
export const SESSION_NOT_SETTLED = Symbol('session not settled');

/** The context of a handler that looks the session up itself: no user yet, its cookie's token. */
export interface OneStatementContext<P extends ZodType, Q extends ZodType, B extends ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  sessionToken: string;
  deps: AppDeps;
}

/**
 * PostgreSQL: the whole request in one statement that also finds the session (docs/decisions/0021).
 * It answers the handler's result, throws the handler's refusals, or answers SESSION_NOT_SETTLED
 * having changed nothing (no session, or one the statement does not settle): the request then
 * takes the ordinary path (session lookup, access guard, `handler`).
 */
export type OneStatementHandler<
  P extends ZodType,
  Q extends ZodType,
  B extends ZodType,
  R extends ResponseSpec,
> = (ctx: OneStatementContext<P, Q, B>) => Promise<HandlerResult<R> | typeof SESSION_NOT_SETTLED>;

/** An implemented endpoint, as the one registration path in app.ts takes it. */
export interface Route {
  endpoint: Endpoint;
  method: HttpMethod;
  url: string;
  access: Access;
  /** The JSON body's schema, when the endpoint reads one. */
  body: ZodType | undefined;
  multipart: boolean;
  rateLimit: RateLimit | undefined;
  /**
   * On PostgreSQL its handler finds the session itself (OneStatementHandler): app.ts does not look
   * it up before the route runs.
   */
  sessionInStatement: boolean;
  /** Checks access, parses the input, runs the handler and serialises its answer. */
  run(request: FastifyRequest, reply: FastifyReply, deps: AppDeps): Promise<unknown>;
}

/** A bad request part: the first problem as the message, each field's problem on its field. */
function invalidInput(error: z.ZodError): AppError {
  const fields = zodFields(error);
  const first = Object.values(fields)[0];
  return new AppError('invalid_input', {
    message: isCatalogueMessage(first) ? first : MSG.invalidInput,
    fields,
  });
}

/** A path with an event and a category names one of that event's categories, or is a 404. */
async function refuseUnknownCategoryIn(deps: AppDeps, params: unknown): Promise<void> {
  if (typeof params !== 'object' || params === null) return;
  if (!('eventId' in params) || !('category' in params)) return;
  const { eventId, category } = params;
  if (typeof eventId !== 'string' || typeof category !== 'string') return;
  await refuseUnknownCategory(deps.db, eventId, category);
}

function eventIdOf(params: unknown): string {
  const eventId =
    typeof params === 'object' && params !== null && 'eventId' in params
      ? params.eventId
      : undefined;
  if (typeof eventId !== 'string') throw notFound();
  return eventId;
}

/**
 * The one guard of archived events: a write to an event (`writesToEvent`) is refused with 409 "El
 * evento está archivado" before its handler runs, and every transaction the handler opens checks
 * again under the event's archive lock, so a write racing the archive cannot land after it.
 */
async function openEventDeps(
  deps: AppDeps,
  eventId: string,
  user: SessionUser | null,
): Promise<AppDeps> {
  const exhibitorId = user?.role === 'exh' ? user.exhibitorId : null;
  await refuseArchivedEvent(deps.db, eventId, exhibitorId);
  return {
    ...deps,
    transact: transactOnOpenEvent(deps.transact, deps.engine, eventId, exhibitorId),
  };
}

/**
 * The server side of an endpoint. The handler's context is typed from the contract (the user by
 * its access, the parsed params, query and body), and its JSON answer goes out through the
 * response schema, so a field the contract does not name (a password hash, an internal id)
 * never leaves.
 */
export function implement<
  A extends Access,
  P extends ZodType,
  Q extends ZodType,
  B extends ZodType,
  R extends ResponseSpec,
>(
  endpoint: Endpoint<A, P, Q, B, R>,
  handler: (ctx: HandlerContext<A, P, Q, B>) => Promise<HandlerResult<R>>,
  options: ImplementOptions = {},
  onPostgres?: OneStatementHandler<P, Q, B, R>,
): Route {
  return {
    endpoint,
    method: endpoint.method,
    url: endpoint.path,
    access: endpoint.access,
    body: reads(endpoint.body) ? endpoint.body : undefined,
    multipart: endpoint.upload !== undefined,
    rateLimit: options.rateLimit,
    sessionInStatement: onPostgres !== undefined,
    async run(request, reply, deps) {
      if (onPostgres && deps.engine === 'postgres') {
        const answer = await inOneStatement(onPostgres);
        if (answer !== SESSION_NOT_SETTLED) return answer;
        // The ordinary path, with the session looked up as for every other request.
        const token = sessionToken(request, deps);
        request.user = token ? await findSessionUser(deps, token) : null;
      }
      const user = guards[endpoint.access](request.user);
      // REQUIRE_ADMIN_MFA: an administrator without the second factor may only set it up.
      if (
        endpoint.access !== 'public' &&
        !endpoint.beforeMfa &&
        user?.role === 'admin' &&
        mustSetUpMfa(deps, user)
      ) {
        throw new AppError('mfa_required');
      }
      // A path that does not fit its pattern names nothing: the same 404 as a missing record.
      const params = z.safeParse(endpoint.params, request.params);
      if (!params.success) throw notFound();
      await refuseUnknownCategoryIn(deps, params.data);
      // Sealed results are refused before anything of them is read (docs/decisions/0036).
      if (endpoint.showsResults) await refuseSealedResults(deps, eventIdOf(request.params));
      if (!writesToEvent(endpoint)) return respond(params.data, deps);
      const eventId = eventIdOf(request.params);
      // An archived event refuses a write before its input is even read.
      if (!options.archiveCheckedInTransaction) {
        return respond(params.data, await openEventDeps(deps, eventId, request.user));
      }
      try {
        return await respond(params.data, {
          ...deps,
          transact: transactUnderArchiveLock(deps.transact, deps.engine, eventId),
        });
      } catch (error) {
        await refuseArchivedAfter(error, request.user);
        throw error;
      }

      /**
       * The request through `handler`, when its session and input are there: anything missing or
       * malformed goes the ordinary way, whose checks come in their order (access first).
       */
      async function inOneStatement(handler: OneStatementHandler<P, Q, B, R>): Promise<unknown> {
        const token = sessionToken(request, deps);
        const params = z.safeParse(endpoint.params, request.params);
        const query = z.safeParse(endpoint.query, request.query);
        const body = z.safeParse(endpoint.body, request.body === undefined ? {} : request.body);
        if (!token || !params.success || !query.success || !body.success) {
          return SESSION_NOT_SETTLED;
        }
        let result;
        try {
          result = await handler({
            params: params.data,
            query: query.data,
            body: body.data,
            sessionToken: token,
            deps,
          });
        } catch (error) {
          if (writesToEvent(endpoint) && options.archiveCheckedInTransaction) {
            // The statement found the session; only a refusal pays for looking it up again.
            await refuseArchivedAfter(error, await findSessionUser(deps, token));
          }
          throw error;
        }
        if (result === SESSION_NOT_SETTLED) return result;
        return answerWith(result);
      }

      /** Whatever refused the write, an archived event answers as if it had been read first. */
      async function refuseArchivedAfter(error: unknown, signedIn: SessionUser | null) {
        if (error instanceof AppError && error.code === 'event_archived') return;
        const exhibitorId = signedIn?.role === 'exh' ? signedIn.exhibitorId : null;
        await refuseArchivedEvent(deps.db, eventIdOf(request.params), exhibitorId);
      }

      function answerWith(result: unknown): unknown {
        const response = endpoint.response;
        if (response.kind === 'file' || reply.sent) return reply;
        const answer = response.schema.safeParse(result);
        if (!answer.success) {
          // Our own bug, not the client's: a 500, logged with what did not fit.
          throw new Error(
            `${endpoint.method} ${endpoint.path} answered outside its contract: ${answer.error.message}`,
          );
        }
        reply.status(response.status);
        return answer.data;
      }

      async function respond(params: z.output<P>, handlerDeps: AppDeps): Promise<unknown> {
        const query = z.safeParse(endpoint.query, request.query);
        if (!query.success) throw invalidInput(query.error);
        const body = z.safeParse(
          endpoint.body,
          endpoint.upload ? undefined : request.body === undefined ? {} : request.body,
        );
        if (!body.success) throw invalidInput(body.error);
        const result = await handler({
          params,
          query: query.data,
          body: body.data,
          user,
          deps: handlerDeps,
          request,
          reply,
        });
        return answerWith(result);
      }
    },
  };
}
