import { describe, expect, it } from 'vitest';
import { currentUserFromCookie } from './session.ts';

describe('currentUser cookie (first paint only)', () => {
  const user = { role: 'exh', email: 'esteban@empresa.test', fullName: 'Esteban Quiroga' };

  it('reads the display data the server set', () => {
    const cookie = `premios_session=x; currentUser=${encodeURIComponent(JSON.stringify(user))}`;
    expect(currentUserFromCookie(cookie)).toEqual(user);
  });

  it('ignores a missing, malformed or foreign-role cookie', () => {
    expect(currentUserFromCookie('')).toBeNull();
    expect(currentUserFromCookie('currentUser=%7Bnot-json')).toBeNull();
    const root = encodeURIComponent(JSON.stringify({ ...user, role: 'root' }));
    expect(currentUserFromCookie(`currentUser=${root}`)).toBeNull();
  });
});
