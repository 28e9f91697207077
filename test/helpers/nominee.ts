import type { NomineeInput } from '../../src/shared/schemas/nominee.ts';

/** A complete, valid nominee as an exhibitor types it in "Agregar reseller", for a fiscal id. */
export const nomineeInput = (
  fiscalId: string,
  overrides: Partial<NomineeInput> = {},
): NomineeInput => ({
  name: `Reseller ${fiscalId}`,
  registeredName: `Reseller ${fiscalId} S.A.`,
  fiscalId,
  contactName: 'Carla Contacto',
  contactPosition: 'Gerente Comercial',
  phone: '1155550000',
  email: `ventas${fiscalId}@reseller.test`,
  location: 'Palermo',
  city: 'Buenos Aires',
  ...overrides,
});
