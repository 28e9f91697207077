import type { CategoryAddress } from '../../../shared/constants.ts';
import { emailDomain, isPublicMailDomain } from '../../../shared/public-mail-domains.ts';
import {
  IDENTICAL_LIST_MIN_IDS,
  REORDERED_LIST_MIN_IDS,
  SAME_DEVICE_WINDOW_HOURS,
  type DeviceMatch,
} from '../../../shared/schemas/integrity.ts';

/*
 * The three alert rules of "Integridad" (docs/decisions/0035), on rows already read: no database
 * here, so that each rule reads as what it flags.
 */

/** One entry of a list that counts (annulled lists are never read). */
export interface ListEntry {
  exhibitorId: string;
  category: CategoryAddress;
  fiscalId: string;
  name: string;
  email: string;
}

/** One exhibitor's list in one category: its fiscal ids in its order. */
export interface ExhibitorList {
  exhibitorId: string;
  fiscalIds: string[];
}

export interface ListGroupFound {
  /** The shared list in its order, or the shared ids ordered by fiscal id (another order). */
  fiscalIds: string[];
  exhibitorIds: string[];
}

/** Lists with the same fiscal ids in the same order: one group per list held by two or more. */
export function identicalLists(lists: readonly ExhibitorList[]): ListGroupFound[] {
  const byOrder = new Map<string, ExhibitorList[]>();
  for (const list of lists) {
    if (list.fiscalIds.length < IDENTICAL_LIST_MIN_IDS) continue;
    const key = list.fiscalIds.join(' ');
    const same = byOrder.get(key);
    if (same) same.push(list);
    else byOrder.set(key, [list]);
  }
  return [...byOrder.values()]
    .filter((same) => same.length >= 2)
    .map((same) => ({
      fiscalIds: same[0]?.fiscalIds ?? [],
      exhibitorIds: same.map((list) => list.exhibitorId),
    }));
}

/**
 * The same set of at least four fiscal ids in more than one order: one group per set, naming every
 * exhibitor whose list holds exactly that set (those in the same order among them too), the ids
 * ordered by fiscal id.
 */
export function reorderedLists(lists: readonly ExhibitorList[]): ListGroupFound[] {
  const bySet = new Map<string, { ids: string[]; lists: ExhibitorList[]; orders: Set<string> }>();
  for (const list of lists) {
    if (list.fiscalIds.length < REORDERED_LIST_MIN_IDS) continue;
    const ids = [...list.fiscalIds].sort();
    const key = ids.join(' ');
    const group = bySet.get(key) ?? { ids, lists: [], orders: new Set<string>() };
    group.lists.push(list);
    group.orders.add(list.fiscalIds.join(' '));
    bySet.set(key, group);
  }
  return [...bySet.values()]
    .filter((group) => group.orders.size >= 2)
    .map((group) => ({
      fiscalIds: group.ids,
      exhibitorIds: group.lists.map((list) => list.exhibitorId),
    }));
}

export interface SelfNominationFound {
  entry: ListEntry;
  domain: string;
}

/**
 * Nominees whose contact address has the exhibitor's own domain, public providers excluded (an
 * address at gmail.com says nothing of whom it works for).
 */
export function selfNominations(
  entries: readonly ListEntry[],
  exhibitorEmails: ReadonlyMap<string, string>,
): SelfNominationFound[] {
  // Each exhibitor's own domain once, the public ones left out.
  const ownDomains = new Map<string, string>();
  for (const [exhibitorId, email] of exhibitorEmails) {
    const domain = emailDomain(email);
    if (domain !== null && !isPublicMailDomain(domain)) ownDomains.set(exhibitorId, domain);
  }
  const found: SelfNominationFound[] = [];
  for (const entry of entries) {
    const own = ownDomains.get(entry.exhibitorId);
    if (own !== undefined && emailDomain(entry.email) === own) found.push({ entry, domain: own });
  }
  return found;
}

/** One session's first opening of the event, from a browser. */
export interface SignInRecord {
  exhibitorId: string;
  deviceId: string | null;
  ip: string;
  userAgent: string;
  /** ISO instant. */
  at: string;
}

export interface DeviceGroupFound {
  matchedBy: DeviceMatch;
  exhibitorIds: string[];
  from: string;
  to: string;
}

const WINDOW_MS = SAME_DEVICE_WINDOW_HOURS * 3_600_000;

/**
 * Exhibitors who signed in from one browser within 24 hours of each other. Two sign-ins are from
 * one browser when both carry the device cookie and it is the same id; when one of them carries
 * none, when both the address and the user agent are the same (a known user agent only). Never by
 * the address alone: a whole office, or a mobile network, shares one. Sign-ins linked so, directly
 * or through others, form one group; a group is an alert when it holds two exhibitors or more.
 */
export function sameDevice(records: readonly SignInRecord[]): DeviceGroupFound[] {
  const sorted = [...records]
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
    .map((record, index) => ({ ...record, index, time: Date.parse(record.at) }));
  type Sorted = (typeof sorted)[number];
  // Union-find over the sign-ins: `root` of each is the first sign-in of its group.
  const parent = sorted.map((record) => record.index);
  const find = (index: number): number => {
    let root = index;
    for (let up = parent[root]; up !== undefined && up !== root; up = parent[root]) root = up;
    return root;
  };
  const byAddressOnly = new Set<number>();
  const join = (a: Sorted, b: Sorted, how: DeviceMatch) => {
    const [rootA, rootB] = [find(a.index), find(b.index)];
    if (rootA !== rootB) parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB);
    if (how === 'addressAndBrowser') byAddressOnly.add(a.index).add(b.index);
  };
  const within = (a: Sorted, b: Sorted) => Math.abs(a.time - b.time) <= WINDOW_MS;

  // Same device id: in time order, each sign-in joins the previous one of that id within 24 hours
  // (every sign-in between them is within 24 hours too).
  const lastOfDevice = new Map<string, Sorted>();
  // Same address and user agent: the sign-ins of each pair, in time order.
  const ofAddressAndBrowser = new Map<string, Sorted[]>();
  for (const record of sorted) {
    if (record.deviceId !== null) {
      const previous = lastOfDevice.get(record.deviceId);
      if (previous && within(previous, record)) join(previous, record, 'deviceCookie');
      lastOfDevice.set(record.deviceId, record);
    }
    if (record.userAgent !== '') {
      const key = `${record.ip}\n${record.userAgent}`;
      const alike = ofAddressAndBrowser.get(key);
      if (alike) alike.push(record);
      else ofAddressAndBrowser.set(key, [record]);
    }
  }
  // A sign-in without the cookie joins every sign-in of its address and user agent within 24
  // hours; two that carry different cookies are two browsers, however alike.
  for (const alike of ofAddressAndBrowser.values()) {
    for (const record of alike) {
      if (record.deviceId !== null) continue;
      for (const other of alike) {
        if (other !== record && within(other, record)) join(record, other, 'addressAndBrowser');
      }
    }
  }

  const groups = new Map<number, Sorted[]>();
  for (const record of sorted) {
    const root = find(record.index);
    const group = groups.get(root);
    if (group) group.push(record);
    else groups.set(root, [record]);
  }
  const found: DeviceGroupFound[] = [];
  for (const members of groups.values()) {
    const exhibitorIds = [...new Set(members.map((record) => record.exhibitorId))];
    const [first, last] = [members[0], members[members.length - 1]];
    if (exhibitorIds.length < 2 || !first || !last) continue;
    found.push({
      matchedBy: members.some((record) => byAddressOnly.has(record.index))
        ? 'addressAndBrowser'
        : 'deviceCookie',
      exhibitorIds,
      from: first.at,
      to: last.at,
    });
  }
  return found.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}
