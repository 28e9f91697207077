import { z } from 'zod';
import { categoryField, idParam } from './common.ts';

/*
 * "Integridad" (issue 28 item 3, docs/decisions/0035): signs of coordinated voting for an
 * administrator to review. Nothing is blocked or changed by them.
 */

/** Identical lists are flagged from this many fiscal ids (one popular nominee alone is no sign). */
export const IDENTICAL_LIST_MIN_IDS = 2;
/** The same fiscal ids in another order are flagged from this many. */
export const REORDERED_LIST_MIN_IDS = 4;
/** Sign-ins from one browser this close together are "Mismo dispositivo". */
export const SAME_DEVICE_WINDOW_HOURS = 24;

export const integrityParams = z.object({ eventId: idParam });

/** An exhibitor as the alerts name them (the event's copy on an archived event). */
export const integrityExhibitor = z.object({
  id: z.string(),
  fullName: z.string(),
  company: z.string(),
});
export type IntegrityExhibitor = z.output<typeof integrityExhibitor>;

/** Exhibitors whose lists hold the same fiscal ids: in `entries`' order, or that set in others. */
export const listGroup = z.object({
  /** The shared list (identical lists), or the shared ids ordered by fiscal id (another order). */
  entries: z.array(z.object({ fiscalId: z.string(), name: z.string() })),
  exhibitors: z.array(integrityExhibitor),
});
export type ListGroup = z.output<typeof listGroup>;

/**
 * How a browser was recognised: by its device cookie, or (a sign-in without one) by the same
 * address and the same user agent together.
 */
export const DEVICE_MATCHES = ['deviceCookie', 'addressAndBrowser'] as const;
export type DeviceMatch = (typeof DEVICE_MATCHES)[number];

/** Exhibitors who signed in to the event from one browser within 24 hours of each other. */
export const deviceGroup = z.object({
  matchedBy: z.enum(DEVICE_MATCHES),
  exhibitors: z.array(integrityExhibitor),
  /** The first and the last of those sign-ins. */
  from: z.string(),
  to: z.string(),
});
export type DeviceGroup = z.output<typeof deviceGroup>;

/** A nominee whose contact address has the domain of the exhibitor's own address. */
export const selfNomination = z.object({
  exhibitor: integrityExhibitor.extend({ email: z.string() }),
  nominee: z.object({ fiscalId: z.string(), name: z.string(), email: z.string() }),
  domain: z.string(),
});
export type SelfNomination = z.output<typeof selfNomination>;

export const categoryAlerts = z.object({
  category: categoryField,
  /** The category's name, as its tab says it. */
  name: z.string(),
  identicalLists: z.array(listGroup),
  reorderedLists: z.array(listGroup),
  selfNominations: z.array(selfNomination),
});
export type CategoryAlerts = z.output<typeof categoryAlerts>;

export const integrityResponse = z.object({
  /** Each category of the event, in the event's order. */
  categories: z.array(categoryAlerts),
  /** Signing in is to the event, not to a category. */
  sameDevice: z.array(deviceGroup),
});
export type IntegrityResponse = z.output<typeof integrityResponse>;
