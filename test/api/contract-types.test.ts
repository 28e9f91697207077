import { describe, expect, it } from 'vitest';
import { typeProblems } from '../helpers/type-problems.ts';

describe('contract types', () => {
  it('refuse a handler whose answer does not fit its endpoint, and unknown error codes', () => {
    // Every `@ts-expect-error` line failed to compile, and nothing else did.
    expect(typeProblems('contract-types.ts')).toEqual([]);
  });
});
