import { CSRF_HEADER, CSRF_VALUE } from '../../src/server/app.ts';
import type { Category } from '../../src/shared/constants.ts';
import type { NominationList } from '../../src/shared/schemas/nominations.ts';

/** What an exhibitor's client last saw acknowledged by the server. */
export interface AckedList {
  exhibitorId: string;
  category: Category;
  version: number;
  fiscalIds: string[];
}

export interface SaverResult {
  acked: AckedList | undefined;
  /** The version of every acknowledged save, in order. */
  ackedVersions: number[];
  saves: number;
  latenciesMs: number[];
  errors: number;
  statuses: Record<number, number>;
}

/** A complete, valid nominee for a fiscal id (load tests and benchmarks). */
export const nominee = (fiscalId: string) => ({
  name: `Reseller ${fiscalId}`,
  registeredName: `Razón Social ${fiscalId} S.A.`,
  fiscalId,
  contactName: 'Carla Contacto',
  contactPosition: 'Gerente',
  phone: '1155550000',
  email: `c${fiscalId}@reseller.test`,
  location: 'Palermo',
  city: 'Buenos Aires',
});

/**
 * One exhibitor saving a list as fast as the server answers: nominates up to 5 resellers, then
 * keeps moving them. Stops after `maxSaves`, when `shouldStop()` says so, or when the server is
 * gone. Every acknowledged answer is remembered: the server must keep at least that.
 */
export async function runSaver(options: {
  baseUrl: string;
  cookie: string;
  eventId: string;
  exhibitorId: string;
  category: Category;
  maxSaves: number;
  shouldStop?: () => boolean;
  fiscalPrefix?: string;
}): Promise<SaverResult> {
  const base = `${options.baseUrl}/api/exh/events/${options.eventId}/${options.category}/nominees`;
  const headers = {
    cookie: options.cookie,
    [CSRF_HEADER]: CSRF_VALUE,
    'content-type': 'application/json',
  };
  const result: SaverResult = {
    acked: undefined,
    ackedVersions: [],
    saves: 0,
    latenciesMs: [],
    errors: 0,
    statuses: {},
  };
  let version = 0;
  let fiscalIds: string[] = [];
  let next = 0;
  const prefix = options.fiscalPrefix ?? '30';
  while (result.saves < options.maxSaves && !options.shouldStop?.()) {
    let request: { url: string; body: unknown };
    if (fiscalIds.length < 5) {
      next += 1;
      request = {
        url: base,
        body: { ...nominee(`${prefix}${String(next).padStart(6, '0')}`), version },
      };
    } else {
      const index = result.saves % 5;
      const direction = index === 0 ? 'down' : 'up';
      request = { url: `${base}/${fiscalIds[index]}/move`, body: { direction, version } };
    }
    const started = performance.now();
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(request.body),
      });
    } catch {
      result.errors += 1;
      break;
    }
    result.latenciesMs.push(performance.now() - started);
    result.saves += 1;
    result.statuses[response.status] = (result.statuses[response.status] ?? 0) + 1;
    const text = await response.text().catch(() => '');
    if (response.status === 200) {
      const list = JSON.parse(text) as NominationList;
      version = list.version;
      fiscalIds = list.nominees.map((n) => n.fiscalId);
      result.ackedVersions.push(version);
      result.acked = {
        exhibitorId: options.exhibitorId,
        category: options.category,
        version,
        fiscalIds,
      };
    } else {
      result.errors += 1;
      if (response.status >= 500 || response.status === 0) break;
      // Out of step (e.g. stale version): start again from what the server holds.
      const current = await fetch(`${options.baseUrl}/api/exh/events/${options.eventId}`, {
        headers,
      }).catch(() => undefined);
      if (!current?.ok) break;
      const event = (await current.json()) as { lists: Record<Category, NominationList> };
      version = event.lists[options.category].version;
      fiscalIds = event.lists[options.category].nominees.map((n) => n.fiscalId);
    }
  }
  return result;
}
