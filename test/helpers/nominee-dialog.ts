import type { Page } from 'playwright-core';
import { NOMINEE_FIELD_LABELS, type NomineeInput } from '../../src/shared/schemas/nominee.ts';

/** A reseller's every field, from its name and fiscal id. */
export const resellerInput = (name: string, fiscalId: string): NomineeInput => ({
  name,
  registeredName: `${name} S.A.`,
  fiscalId,
  contactName: `Contacto ${name}`,
  contactPosition: 'Gerente Comercial',
  phone: '01155550000',
  email: `ventas@${name.toLowerCase().replaceAll(' ', '')}.test`,
  location: 'Palermo',
  city: 'Buenos Aires',
});

/**
 * An exhibitor's nomination as typed in the open tab: "Nominar", every field of the dialog
 * "Nominar a un reseller", "Guardar", and the reseller's row in the tab's list.
 */
export async function nominateInDialog(page: Page, values: NomineeInput): Promise<void> {
  await page.getByRole('button', { name: 'Nominar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nominar a un reseller' });
  await dialog.waitFor();
  for (const [field, label] of Object.entries(NOMINEE_FIELD_LABELS)) {
    await dialog
      .getByRole('textbox', { name: label, exact: true })
      .fill(values[field as keyof NomineeInput] ?? '');
  }
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('tabpanel').getByRole('row').filter({ hasText: values.name }).waitFor();
}
