import type { Page } from 'playwright-core';
import type { RunningServer } from './server.ts';

/** The heading of the code step (/signin/code). */
export const CODE_HEADING = 'Le hemos enviado un código por correo, ingréselo para continuar.';

/** The code and the sign-in link of the `count`-th email to `to`. */
export async function codeMail(server: RunningServer, to: string, count = 1) {
  const mail = await server.smtp.waitFor(to, { count });
  const code = /\b(\d{6})\b/.exec(mail.subject)?.[1];
  const link = /(http\S+\/signin\/link\?token=[\w-]+)/.exec(mail.text)?.[1];
  if (!code || !link) throw new Error(`no code or link in the mail to ${to}`);
  return { code, link };
}

/** The email step in the browser: `email` asks for a code on /signin, and the code step shows. */
export async function askForCode(page: Page, email: string): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'siguiente' }).click();
  await page.getByRole('heading', { name: CODE_HEADING }).waitFor();
}
