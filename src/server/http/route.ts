import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import type { AppDeps } from '../deps.ts';
import type { SessionUser } from './session.ts';

/**
 * Who may call a route. Checked before the handler by the one registration path in app.ts, and
 * walked by the authorization matrix test.
 */
export type Access = 'public' | 'admin' | 'exh';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteContext<Body, Query, Params, User> {
  body: Body;
  query: Query;
  params: Params;
  user: User;
  deps: AppDeps;
  request: FastifyRequest;
  reply: FastifyReply;
}

type UserFor<A extends Access> = A extends 'admin'
  ? Extract<SessionUser, { role: 'admin' }>
  : A extends 'exh'
    ? Extract<SessionUser, { role: 'exh' }>
    : SessionUser | null;

export interface RouteSpec<A extends Access, Body, Query, Params> {
  method: HttpMethod;
  url: string;
  access: A;
  summary: string;
  body?: ZodType<Body>;
  query?: ZodType<Query>;
  params?: ZodType<Params>;
  /** Response schema, used for the OpenAPI document. */
  response?: ZodType;
  /** Per-client request limit, on top of any per-address limit in the service. */
  rateLimit?: { max: number; timeWindow: string };
  /** Multipart upload routes skip JSON body validation. */
  multipart?: boolean;
  handler(ctx: RouteContext<Body, Query, Params, UserFor<A>>): Promise<unknown>;
}

/** A route with its types erased, as stored in the route table. */
export interface Route {
  method: HttpMethod;
  url: string;
  access: Access;
  summary: string;
  body?: ZodType;
  query?: ZodType;
  params?: ZodType;
  response?: ZodType;
  rateLimit?: { max: number; timeWindow: string };
  multipart?: boolean;
  handler(ctx: RouteContext<unknown, unknown, unknown, SessionUser | null>): Promise<unknown>;
}

export function defineRoute<
  A extends Access,
  Body = undefined,
  Query = undefined,
  Params = undefined,
>(spec: RouteSpec<A, Body, Query, Params>): Route {
  return spec as unknown as Route;
}
