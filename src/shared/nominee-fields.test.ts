import { describe, expect, it } from 'vitest';
import { DEFAULT_NOMINEE_FIELDS, readNomineeFieldSettings } from './nominee-fields.ts';

describe('readNomineeFieldSettings', () => {
  it('reads the stored settings of each field', () => {
    const stored = JSON.stringify({ ...DEFAULT_NOMINEE_FIELDS, phone: 'optional', city: 'hidden' });
    expect(readNomineeFieldSettings(stored)).toEqual({
      ...DEFAULT_NOMINEE_FIELDS,
      phone: 'optional',
      city: 'hidden',
    });
  });

  it('keeps a field it does not name, or names with an unknown value, required', () => {
    expect(readNomineeFieldSettings('{"email":"optional","phone":"opcional","city":3}')).toEqual({
      ...DEFAULT_NOMINEE_FIELDS,
      email: 'optional',
    });
  });

  it.each(['', 'no es JSON', 'null', '"hidden"', '["hidden"]', '42'])(
    'reads every field as required from a malformed stored text: %j',
    (stored) => {
      expect(readNomineeFieldSettings(stored)).toEqual(DEFAULT_NOMINEE_FIELDS);
    },
  );
});
