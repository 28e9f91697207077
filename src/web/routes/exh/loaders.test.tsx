import type { LoaderFunctionArgs } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { myEvent, myEvents } from '../../../shared/api/nominations.ts';
import { getSession } from '../../../shared/api/session.ts';
import { MSG } from '../../../shared/messages.ts';
import { ApiError, call, urlOf } from '../../lib/http.ts';
import { exhLayoutLoader, myEventsLoader, nominationLoader } from './loaders.ts';

const events = {
  events: [{ id: 'e1', name: 'Premios', eventDate: '2099-03-10', voteDeadline: '2099-02-28' }],
};
const routeArgs = (eventId: string) => ({ params: { eventId } }) as unknown as LoaderFunctionArgs;

describe("the exhibitor's routes start their screens' requests", () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn(async () => new Response(JSON.stringify(events), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('for the URLs the contract gives', () => {
    expect(exhLayoutLoader().session.url).toBe(urlOf(getSession, {}));
    expect(myEventsLoader().events.url).toBe(urlOf(myEvents, {}));
    const eventId = 'a b/1';
    expect(nominationLoader(routeArgs(eventId)).event.url).toBe(
      urlOf(myEvent, { params: { eventId } }),
    );
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/api/session',
      '/api/exh/events',
      '/api/exh/events/a%20b%2F1',
    ]);
  });

  it('and `call` reads that answer, checked by its schema, without asking again', async () => {
    const { events: started } = myEventsLoader();
    expect(await call(myEvents, {}, started)).toEqual(events);
    // Read whole: a second reader (React's strict effects) gets the same answer.
    expect(await call(myEvents, {}, started)).toEqual(events);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("but asks for its own URL when the started request is another's", async () => {
    const { event: started } = nominationLoader(routeArgs('other'));
    await expect(call(myEvents, {}, started)).resolves.toEqual(events);
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/api/exh/events/other',
      '/api/exh/events',
    ]);
  });

  it('gives a refusal as the ApiError with the server message', async () => {
    const refusal = { error: { code: 'not_found', message: MSG.apiNotFound } };
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(refusal), { status: 404 }));
    const { event: started } = nominationLoader(routeArgs('e9'));
    const error: unknown = await call(myEvent, { params: { eventId: 'e9' } }, started).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', message: MSG.apiNotFound });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('and a network failure as the generic error', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const { events: started } = myEventsLoader();
    const error: unknown = await call(myEvents, {}, started).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      status: 0,
      code: 'network_error',
      message: 'Ha ocurrido un error',
    });
  });
});
