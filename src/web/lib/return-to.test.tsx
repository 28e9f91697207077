import { beforeEach, describe, expect, it } from 'vitest';
import {
  rememberReturnPath,
  safeReturnPath,
  signInReturningTo,
  takeReturnPath,
} from './return-to.ts';

describe('the path an exhibitor returns to after signing in', () => {
  beforeEach(() => localStorage.clear());

  it('follows only paths of the exhibitor area, never another origin', () => {
    const id = '0b6f7a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
    expect(safeReturnPath(`/exh/event/${id}`)).toBe(`/exh/event/${id}`);
    expect(safeReturnPath(`/exh/event/${id}?categoria=value`)).toBe(
      `/exh/event/${id}?categoria=value`,
    );
    for (const unsafe of [
      '//evil.test/exh/x',
      'https://evil.test/exh/event/1',
      '/\\evil.test',
      '/exh/../admin',
      '/exh//evil.test',
      '/exh',
      '/admin',
      '/exh/event/1#x',
      ' /exh/event/1',
      null,
      42,
    ]) {
      expect(safeReturnPath(unsafe), String(unsafe)).toBeNull();
    }
    expect(signInReturningTo(`/exh/event/${id}`)).toBe(
      `/signin?next=${encodeURIComponent(`/exh/event/${id}`)}`,
    );
    expect(signInReturningTo('//evil.test')).toBe('/signin');
  });

  it('is taken once, within the code life, and a sign-in without `next` forgets an older one', () => {
    rememberReturnPath('/exh/event/abc', 1_000);
    expect(takeReturnPath(2_000)).toBe('/exh/event/abc');
    expect(takeReturnPath(3_000)).toBeNull();
    rememberReturnPath('/exh/event/abc', 1_000);
    expect(takeReturnPath(1_000 + 15 * 60_000 + 1)).toBeNull();
    rememberReturnPath('/exh/event/abc', 1_000);
    rememberReturnPath(null, 2_000);
    expect(takeReturnPath(3_000)).toBeNull();
    rememberReturnPath('https://evil.test', 1_000);
    expect(takeReturnPath(2_000)).toBeNull();
  });

  it('forgets whatever else the storage holds under its key, without failing', () => {
    for (const stored of [
      'no es JSON',
      'null',
      '42',
      '"/exh/event/abc"',
      '{"path":"/exh/event/abc"}',
      '{"at":1000}',
      '{"path":"/exh/event/abc","at":"1000"}',
    ]) {
      localStorage.setItem('premios.returnTo', stored);
      expect(takeReturnPath(2_000), stored).toBeNull();
      expect(localStorage.getItem('premios.returnTo')).toBeNull();
    }
    localStorage.setItem('premios.returnTo', '{"path":"/exh/event/abc","at":1000}');
    expect(takeReturnPath(2_000)).toBe('/exh/event/abc');
  });
});
