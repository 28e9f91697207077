import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_COOKIE, DEVICE_COOKIE_DAYS } from '../../shared/constants.ts';
import type { AppDeps } from '../deps.ts';
import { newLinkToken } from '../lib/crypto.ts';
import type { Device } from '../lib/device-sign-ins.ts';

/*
 * The device cookie (docs/decisions/0035): a random id the browser keeps for 400 days, so that
 * "Mismo dispositivo" can tell one browser from another in an office whose computers share one
 * address and one browser version. It says nothing of the person and opens nothing.
 */

/** A device id as this server writes it (128 random bits, base64url); anything else is ignored. */
const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;

/** The longest user agent kept: enough to tell browsers apart, not a place to store a payload. */
const USER_AGENT_MAX_CHARS = 400;

function deviceCookieName(deps: AppDeps): string {
  return deps.config.appUrl.startsWith('https://') ? `__Host-${DEVICE_COOKIE}` : DEVICE_COOKIE;
}

function deviceIdOf(request: FastifyRequest, deps: AppDeps): string | null {
  const value = request.cookies[deviceCookieName(deps)];
  return value !== undefined && DEVICE_ID.test(value) ? value : null;
}

/**
 * At an exhibitor's code or link sign-in: the browser keeps the id it has, or gets one. Set again
 * either way, so that it lasts 400 days from the latest sign-in.
 */
export function keepDeviceCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: AppDeps,
): void {
  const secure = deps.config.appUrl.startsWith('https://');
  reply.setCookie(deviceCookieName(deps), deviceIdOf(request, deps) ?? newLinkToken(), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: DEVICE_COOKIE_DAYS * 86_400,
  });
}

/** The browser a request comes from: its device id (when it sent one), address and user agent. */
export function deviceOf(request: FastifyRequest, deps: AppDeps): Device {
  const userAgent = request.headers['user-agent'];
  return {
    deviceId: deviceIdOf(request, deps),
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, USER_AGENT_MAX_CHARS) : '',
  };
}
