import { describe, expect, it } from 'vitest';
import { typeProblems } from '../helpers/type-problems.ts';

describe('transaction types', () => {
  it('refuse the outer connection where a transaction is needed, and give work no way out', () => {
    // Every `@ts-expect-error` line failed to compile, and nothing else did.
    expect(typeProblems('transaction-types.ts')).toEqual([]);
  });
});
