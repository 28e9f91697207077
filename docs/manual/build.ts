/**
 * `npm run manual`: builds docs/manual/instructivo.pdf, the Spanish instruction manual served by
 * GET /api/manual. It builds the web app, starts the real server on a fresh SQLite database with
 * demonstration data, takes screenshots of the real screens with Chromium, fills them into
 * manual.html and prints that page to PDF with the same Chromium. The PDF is committed, so the
 * running app needs no browser.
 *
 * Set E2E_WEB_DIR to reuse an existing web build. A screen that cannot be reached is reported and
 * left out of the PDF rather than stopping the build.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { SessionSubject } from '../../src/server/http/session.ts';

const here = import.meta.dirname;
const root = path.resolve(here, '../..');
const OUTPUT = path.join(here, 'instructivo.pdf');
/** The demonstration's "now": voting is open (deadline 1 July 2026). */
const NOW = '2026-06-10T15:00:00.000Z';
const DESKTOP = { width: 1200, height: 760 };
const PHONE = { width: 390, height: 780 };

function buildWeb(): string {
  if (process.env.E2E_WEB_DIR) return process.env.E2E_WEB_DIR;
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-manual-web-'));
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('the web build failed');
  return outDir;
}

const ownWebBuild = !process.env.E2E_WEB_DIR;
const webDir = buildWeb();
// The server helper reads the web folder when it is loaded.
process.env.E2E_WEB_DIR = webDir;
const { startServer } = await import('../../test/helpers/server.ts');
const { launchBrowser } = await import('../../test/helpers/browser.ts');
const { signInContext } = await import('../../test/helpers/session.ts');
const seed = await import('../../test/helpers/seed.ts');

const server = await startServer({ now: NOW });
const browser: Browser = await launchBrowser();
const shots = new Map<string, string>();
const missing: string[] = [];

try {
  const db = server.database.db;
  const admin = await seed.seedAdmin(db, {
    email: 'ana@premios.example',
    fullName: 'Ana Administradora',
  });
  const event = await seed.seedEvent(db, {
    name: 'Premios Partners 2026',
    eventDate: '2026-07-15',
    voteDeadline: '2026-07-01',
  });
  // Voting is still open here, with its results hidden until the close and only registry
  // resellers nominable: the sealed tab, the "Integridad" alerts and the registry-only form.
  const sealedEvent = await seed.seedEvent(db, {
    name: 'Encuentro de Canales 2026',
    eventDate: '2026-09-20',
    voteDeadline: '2026-09-05',
  });
  await db
    .updateTable('events')
    .set({ seal_results: 1, nominable_resellers: 'registry' })
    .where('id', '=', sealedEvent.id)
    .execute();
  const people = [
    ['Laura Gómez', 'laura.gomez@distribuidora.example', 'Distribuidora Sur'],
    ['Martín Pérez', 'martin.perez@mayorista.example', 'Mayorista Norte'],
    ['Sofía Díaz', 'sofia.diaz@soluciones.example', 'Soluciones IT'],
    // Has not voted yet: the participation tab and the reminder have someone to show.
    ['Tomás Herrera', 'tomas.herrera@redes.example', 'Redes Centro'],
  ] as const;
  const exhibitors = [];
  for (const [fullName, email, company] of people) {
    const exhibitor = await seed.seedExhibitor(db, { fullName, email, company });
    await seed.seedMembership(db, event.id, exhibitor.id);
    exhibitors.push(exhibitor);
  }
  const resellers: Record<string, string> = {
    '30712345671': 'Redes del Plata',
    '30698765432': 'Nube Andina',
    '30611122233': 'Datacenter Cuyo',
    '30755566677': 'Soporte Patagónico',
    '30788899900': 'Integra Litoral',
  };
  const lists: [number, string[]][] = [
    [0, ['30712345671', '30698765432', '30611122233', '30755566677']],
    [1, ['30698765432', '30712345671', '30788899900']],
    [2, ['30712345671', '30611122233', '30698765432', '30788899900', '30755566677']],
  ];
  for (const [index, fiscalIds] of lists) {
    await seed.seedNominations(db, {
      eventId: event.id,
      exhibitorId: exhibitors[index]?.id ?? '',
      category: 'consumption',
      nominees: fiscalIds.map((fiscalId, order) => ({
        fiscalId,
        name: resellers[fiscalId],
        email: `contacto@${(resellers[fiscalId] ?? 'reseller').toLowerCase().replace(/\W+/g, '')}.example`,
        nominatedAt: `2026-06-0${index + 1}T1${order}:00:00.000Z`,
      })),
    });
  }
  await seed.seedNominations(db, {
    eventId: event.id,
    exhibitorId: exhibitors[0]?.id ?? '',
    category: 'value',
    nominees: [{ fiscalId: '30611122233', name: 'Datacenter Cuyo' }],
  });
  const firstExhibitor = exhibitors[0] ?? { id: '', email: '', fullName: '' };
  const secondExhibitor = exhibitors[1] ?? { id: '', email: '', fullName: '' };
  // Two exhibitors of the sealed event with the same list in the same order ("Listas idénticas"),
  // one of them nominating a contact at its own company ("Nominaciones a la propia empresa").
  const identicalList = ['30712345671', '30698765432', '30611122233'];
  for (const [index, ownDomainAt] of [
    [1, -1],
    [2, 2],
  ] as const) {
    const exhibitor = exhibitors[index];
    if (!exhibitor) continue;
    await seed.seedMembership(db, sealedEvent.id, exhibitor.id);
    await seed.seedNominations(db, {
      eventId: sealedEvent.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: identicalList.map((fiscalId, order) => ({
        fiscalId,
        name: resellers[fiscalId],
        email:
          order === ownDomainAt
            ? `ventas@${exhibitor.email.split('@')[1] ?? ''}`
            : `contacto@${(resellers[fiscalId] ?? 'reseller').toLowerCase().replace(/\W+/g, '')}.example`,
        nominatedAt: `2026-06-0${index + 4}T1${order}:00:00.000Z`,
      })),
    });
  }
  const annulReason = 'Votó con la cuenta de otra empresa';

  async function context(
    subject: SessionSubject | null,
    display: { email: string; fullName: string },
    viewport = DESKTOP,
  ): Promise<BrowserContext> {
    const created = await browser.newContext({
      baseURL: server.url,
      viewport,
      locale: 'es-AR',
      deviceScaleFactor: 1,
    });
    if (subject) await signInContext(created, server, subject, display, new Date(NOW));
    return created;
  }

  /** Runs one screen's steps and keeps its screenshot; a failure only leaves that shot out. */
  async function shot(name: string, page: Page, steps: () => Promise<void>) {
    try {
      await steps();
      // Let dialogs finish their opening transition.
      await page.waitForFunction(() =>
        document.getAnimations().every((a) => a.playState !== 'running'),
      );
      const image = await page.screenshot({ type: 'jpeg', quality: 82 });
      shots.set(name, `data:image/jpeg;base64,${image.toString('base64')}`);
      process.stdout.write(`  captured ${name}\n`);
    } catch (error) {
      missing.push(name);
      process.stdout.write(`  MISSING ${name}: ${(error as Error).message.split('\n')[0]}\n`);
    }
  }
  const visible = { timeout: 15_000 };

  const logo = await fetch(`${server.url}/api/logo`);
  shots.set(
    'logo',
    `data:image/png;base64,${Buffer.from(await logo.arrayBuffer()).toString('base64')}`,
  );

  process.stdout.write('Sign-in screens\n');
  {
    const anonymous = await context(null, { email: '', fullName: '' });
    const page = await anonymous.newPage();
    await shot('signin-email', page, async () => {
      await page.goto('/signin');
      await page.getByLabel('Email').fill(admin.email);
    });
    await shot('signin-admin', page, async () => {
      await page.getByRole('button', { name: 'siguiente' }).click();
      await page.getByLabel('Contraseña', { exact: true }).waitFor(visible);
    });
    await shot('signin-code', page, async () => {
      await page.goto('/signin');
      await page.getByLabel('Email').fill(firstExhibitor.email);
      await page.getByRole('button', { name: 'siguiente' }).click();
      await page.getByLabel('Dígito 1').waitFor(visible);
    });
    await anonymous.close();
  }

  process.stdout.write('Administrator screens\n');
  {
    const adminContext = await context(
      { role: 'admin', adminId: admin.id },
      { email: admin.email, fullName: admin.fullName ?? '' },
    );
    const page = await adminContext.newPage();
    await shot('admin-events', page, async () => {
      await page.goto('/admin');
      await page.getByRole('link', { name: event.name }).waitFor(visible);
    });
    await shot('admin-new-event', page, async () => {
      await page.getByRole('button', { name: 'nuevo', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Nuevo evento' });
      await dialog.waitFor(visible);
      await dialog
        .getByRole('textbox', { name: 'Nombre', exact: true })
        .fill('Premios Partners 2027');
    });
    await shot('admin-exhibitors', page, async () => {
      await page.goto(`/admin/event/${event.id}/exhibitors`);
      await page.getByText(firstExhibitor.fullName).first().waitFor(visible);
    });
    await shot('admin-new-exhibitor', page, async () => {
      await page.getByRole('button', { name: 'Expositor', exact: true }).click();
      await page.getByRole('dialog', { name: 'Nuevo votante' }).waitFor(visible);
    });
    await shot('admin-roster-bulk', page, async () => {
      await page.goto(`/admin/event/${event.id}/exhibitors`);
      await page.getByRole('checkbox', { name: `Seleccionar ${firstExhibitor.fullName}` }).check();
      await page.getByRole('button', { name: 'Eliminar expositores' }).click();
      await page.getByRole('dialog', { name: '¿Eliminar expositores?' }).waitFor(visible);
    });
    await shot('admin-import', page, async () => {
      await page.goto(`/admin/event/${event.id}/exhibitors`);
      await page.getByRole('button', { name: 'Importar', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Importar expositores' });
      await dialog.waitFor(visible);
      const rows = [
        'Nombre completo;Email;Empresa',
        'Julieta Romero;julieta.romero@conectar.example;Conectar SRL',
        'Diego Ruiz;diego.ruiz@infra.example;Infraestructura Oeste',
        `${firstExhibitor.fullName};${firstExhibitor.email};Distribuidora Sur`,
        'Pablo Sosa;pablo.sosa-sin-arroba;Sosa Hnos',
      ];
      await dialog.getByLabel('Archivo').setInputFiles({
        name: 'expositores.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(rows.join('\n'), 'utf8'),
      });
      await dialog.getByText('2 nuevos, 1 ya estaban, 1 con errores').waitFor(visible);
    });
    await shot('admin-participation', page, async () => {
      await page.goto(`/admin/event/${event.id}/participation`);
      await page
        .getByRole('table', { name: 'Participación' })
        .locator('tbody tr')
        .nth(2)
        .waitFor(visible);
    });
    await shot('admin-reminder', page, async () => {
      await page.getByRole('button', { name: 'Recordar a quienes no votaron' }).click();
      await page
        .getByRole('dialog', { name: 'Enviar recordatorio' })
        .getByText(/Se enviará un recordatorio/)
        .waitFor(visible);
    });
    await shot('admin-duplicate', page, async () => {
      await page.goto(`/admin/event/${event.id}/exhibitors`);
      await page.getByRole('button', { name: 'Duplicar evento' }).click();
      const dialog = page.getByRole('dialog', { name: 'Duplicar evento' });
      await dialog.waitFor(visible);
      await dialog
        .getByRole('textbox', { name: 'Nombre', exact: true })
        .fill('Premios Partners 2027');
    });
    await shot('admin-categories', page, async () => {
      await page.goto(`/admin/event/${event.id}/categories`);
      await page
        .getByRole('table', { name: 'Categorías' })
        .locator('tbody tr')
        .nth(1)
        .waitFor(visible);
    });
    await shot('admin-new-category', page, async () => {
      await page.getByRole('button', { name: 'Nueva categoría' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nueva categoría' });
      await dialog.getByRole('textbox', { name: 'Nombre' }).fill('MEJOR PARTNER DE SEGURIDAD');
      await dialog
        .getByRole('textbox', { name: 'Descripción' })
        .fill('Resellers con una práctica de ciberseguridad propia.');
      await dialog.getByRole('spinbutton', { name: 'Nominaciones por expositor' }).fill('3');
      await dialog
        .getByRole('combobox', { name: 'Puntaje' })
        .selectOption({ label: 'Un punto por nominación' });
    });
    await shot('admin-nominee-fields', page, async () => {
      await page.goto(`/admin/event/${event.id}/exhibitors`);
      await page.getByRole('button', { name: 'Editar evento' }).click();
      const dialog = page.getByRole('dialog', { name: 'Editar evento' });
      const section = dialog.getByRole('group', { name: 'Datos del nominado' });
      await section.waitFor(visible);
      await section.getByRole('combobox', { name: 'Región' }).selectOption({ label: 'Opcional' });
      await section.scrollIntoViewIfNeeded();
    });
    await shot('admin-event-logo', page, async () => {
      await page.goto(`/admin/event/${event.id}/exhibitors`);
      await page.getByRole('button', { name: 'Logo del evento' }).click();
      await page.getByRole('dialog', { name: 'Logo del evento' }).waitFor(visible);
    });
    await shot('admin-register', page, async () => {
      await page.goto(`/admin`);
      await page.getByRole('button', { name: 'Registrar nuevo administrador' }).click();
      await page.getByRole('dialog', { name: 'Registrar nuevo administrador' }).waitFor(visible);
    });
    await shot('admin-admins', page, async () => {
      await page.goto('/admin/admins');
      await page
        .getByRole('table', { name: 'Administradores' })
        .locator('tbody tr')
        .first()
        .waitFor(visible);
    });
    await shot('admin-registry-import', page, async () => {
      await page.goto('/admin/resellers');
      await page.getByRole('button', { name: 'Importar', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Importar padrón' });
      await dialog.waitFor(visible);
      const rows = [
        'ID fiscal;Nombre del reseller;Razón social;Localidad;Región',
        '30-71234567-1;Andina Redes;Andina Redes SA;Mendoza;Cuyo',
        '20-11111111-2;Núñez Informática;Núñez SRL;Córdoba;Centro',
        '30-70998877-4;Conectar;Conectar SRL;Rosario;Litoral',
        '30-ABC;Sin ID;Sin ID SA;Salta;Norte',
      ];
      await dialog.getByLabel('Archivo').setInputFiles({
        name: 'padron.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(rows.join('\n'), 'utf8'),
      });
      await dialog.getByText('3 nuevos, 0 actualizados, 1 con errores').waitFor(visible);
    });
    await shot('admin-registry', page, async () => {
      const dialog = page.getByRole('dialog', { name: 'Importar padrón' });
      await dialog.getByRole('button', { name: 'Confirmar importación' }).click();
      await dialog.waitFor({ state: 'hidden', ...visible });
      await page
        .getByRole('table', { name: 'Padrón de resellers' })
        .getByRole('cell', { name: 'Andina Redes', exact: true })
        .waitFor(visible);
    });
    await shot('admin-security', page, async () => {
      await page.goto('/admin/security');
      await page.getByRole('button', { name: 'Activar verificación en dos pasos' }).click();
      // The code mailed to the account's address comes first.
      const mail = await server.smtp.waitFor(admin.email, { count: 1 });
      const emailCode = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
      await page.getByRole('textbox', { name: 'Código enviado por correo' }).fill(emailCode);
      await page.getByRole('button', { name: 'Continuar' }).click();
      await page.getByRole('img', { name: 'Código QR' }).waitFor(visible);
    });
    await shot('admin-ranking', page, async () => {
      await page.goto(`/admin/event/${event.id}/consumption`);
      await page.getByRole('table', { name: 'Votos' }).locator('tbody tr').nth(4).waitFor(visible);
    });
    await shot('admin-nominee', page, async () => {
      await page.getByRole('link', { name: 'Redes del Plata' }).click();
      await page.getByRole('heading', { name: /Votos para el id fiscal/ }).waitFor(visible);
      await page.getByRole('table').locator('tbody tr').nth(2).waitFor(visible);
    });
    await shot('admin-edit-vote', page, async () => {
      await page.getByRole('button', { name: 'Redes del Plata' }).first().click();
      await page.getByRole('dialog', { name: 'Editar voto' }).waitFor(visible);
    });
    await shot('admin-duplicates', page, async () => {
      await page.goto(`/admin/event/${event.id}/consumption`);
      await page.getByRole('button', { name: 'Posibles duplicados' }).click();
      await page
        .getByRole('dialog', { name: 'Posibles duplicados' })
        .getByRole('button', { name: 'Cerrar' })
        .waitFor(visible);
    });
    await shot('admin-history', page, async () => {
      await page.goto(`/admin/event/${event.id}/history`);
      await page
        .getByRole('table', { name: 'Historial' })
        .locator('tbody tr')
        .first()
        .waitFor(visible);
    });
    await shot('admin-exhibitor-votes', page, async () => {
      await page.goto(`/admin/event/${event.id}/exhibitors/${firstExhibitor.id}`);
      await page
        .getByRole('heading', { name: `Votos de ${firstExhibitor.fullName}` })
        .waitFor(visible);
    });
    await shot('admin-present', page, async () => {
      await page.goto(`/admin/event/${event.id}/consumption`);
      await page.getByRole('button', { name: 'Presentar' }).click();
      await page.getByRole('button', { name: 'Siguiente' }).waitFor(visible);
      for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() =>
        [...document.querySelectorAll('button')].some(
          (b) => b.textContent === 'Siguiente' && b.disabled,
        ),
      );
    });
    await shot('admin-annul', page, async () => {
      await page.goto(`/admin/event/${event.id}/exhibitors/${secondExhibitor.id}`);
      await page.getByRole('button', { name: 'Anular votos' }).click();
      const dialog = page.getByRole('dialog', { name: 'Anular votos' });
      await dialog.waitFor(visible);
      await dialog.getByRole('textbox', { name: 'Motivo' }).fill(annulReason);
    });
    await shot('admin-annulled', page, async () => {
      const dialog = page.getByRole('dialog', { name: 'Anular votos' });
      await dialog.getByRole('button', { name: 'Anular' }).click();
      await dialog.waitFor({ state: 'detached', ...visible });
      await page.getByText(`Anulado: ${annulReason}`).waitFor(visible);
      await page.getByRole('button', { name: 'Restablecer' }).waitFor(visible);
    });
    await shot('admin-sealed', page, async () => {
      await page.goto(`/admin/event/${sealedEvent.id}/consumption`);
      await page.getByText('Los resultados se mostrarán después del cierre.').waitFor(visible);
      await page.getByRole('button', { name: 'Ver resultados ahora' }).waitFor(visible);
    });
    await shot('admin-sealed-view', page, async () => {
      await page.getByRole('button', { name: 'Ver resultados ahora' }).click();
      const dialog = page.getByRole('dialog', { name: '¿Ver resultados antes del cierre?' });
      await dialog.waitFor(visible);
      await dialog
        .getByRole('textbox', { name: 'Motivo' })
        .fill('El comité pidió el avance para la prensa');
    });
    await shot('admin-integrity', page, async () => {
      await page.goto(`/admin/event/${sealedEvent.id}/integrity`);
      await page.getByRole('heading', { name: 'Listas idénticas' }).waitFor(visible);
      await page
        .getByText(/en el mismo orden/)
        .first()
        .waitFor(visible);
      await page
        .getByRole('heading', { name: 'Nominaciones a la propia empresa' })
        .waitFor(visible);
    });
    await adminContext.close();
  }

  process.stdout.write('Exhibitor screens\n');
  {
    const subject = { role: 'exh' as const, exhibitorId: firstExhibitor.id };
    const display = { email: firstExhibitor.email, fullName: firstExhibitor.fullName };
    const phone = await context(subject, display, PHONE);
    const phonePage = await phone.newPage();
    await shot('exh-events', phonePage, async () => {
      await phonePage.goto('/exh');
      await phonePage.getByRole('link', { name: event.name }).waitFor(visible);
    });
    await shot('exh-list-phone', phonePage, async () => {
      await phonePage.goto(`/exh/event/${event.id}`);
      await phonePage.getByText('Redes del Plata').first().waitFor(visible);
    });
    await shot('exh-unreachable', phonePage, async () => {
      // The screen's code cannot be fetched, as on a phone that lost its signal.
      await phonePage.route('**/assets/MyEvents-*.js', (route) =>
        route.abort('internetdisconnected'),
      );
      await phonePage.goto('/exh');
      await phonePage.getByRole('button', { name: 'Volver a intentar' }).waitFor(visible);
    });
    await phone.close();

    const desktop = await context(subject, display);
    const page = await desktop.newPage();
    await shot('exh-list', page, async () => {
      await page.goto(`/exh/event/${event.id}`);
      await page.getByText('Redes del Plata').first().waitFor(visible);
    });
    await shot('exh-nominate', page, async () => {
      await page.getByRole('tab', { name: 'Nominación Reseller de VALOR AGREGADO' }).click();
      await page.getByRole('button', { name: 'Nominar', exact: true }).click();
      await page.getByRole('dialog', { name: 'Nominar a un reseller' }).waitFor(visible);
    });
    await shot('exh-previous', page, async () => {
      const dialog = page.getByRole('dialog', { name: 'Nominar a un reseller' });
      await dialog.getByRole('combobox', { name: 'Buscar en el padrón' }).click();
      await dialog
        .getByRole('group', { name: 'Mis nominaciones anteriores' })
        .getByRole('option')
        .first()
        .waitFor(visible);
    });
    await shot('exh-registry-search', page, async () => {
      const dialog = page.getByRole('dialog', { name: 'Nominar a un reseller' });
      await dialog.getByRole('combobox', { name: 'Buscar en el padrón' }).fill('30');
      await dialog
        .getByRole('option', { name: 'Conectar · 30709988774', exact: true })
        .waitFor(visible);
    });
    await desktop.close();

    // The exhibitor whose list the administrator annulled above, also in the registry-only event.
    const annulled = await context(
      { role: 'exh', exhibitorId: secondExhibitor.id },
      { email: secondExhibitor.email, fullName: secondExhibitor.fullName },
    );
    const annulledPage = await annulled.newPage();
    await shot('exh-annulled', annulledPage, async () => {
      await annulledPage.goto(`/exh/event/${event.id}`);
      await annulledPage
        .getByText(`Tu lista fue anulada por la organización: ${annulReason}`)
        .waitFor(visible);
      await annulledPage.getByText(/Modificado por la organización el/).waitFor(visible);
    });
    await shot('exh-registry-only', annulledPage, async () => {
      await annulledPage.goto(`/exh/event/${sealedEvent.id}?categoria=value`);
      await annulledPage.getByRole('button', { name: 'Nominar', exact: true }).click();
      const dialog = annulledPage.getByRole('dialog', { name: 'Nominar a un reseller' });
      await dialog
        .getByText('Este evento solo acepta resellers del padrón.', { exact: false })
        .waitFor(visible);
    });
    await annulled.close();
  }

  process.stdout.write('Printing the PDF\n');
  let html = fs.readFileSync(path.join(here, 'manual.html'), 'utf8');
  html = html.replace(
    // Prettier breaks a long <img> over several lines: any whitespace before data-shot.
    /<figure([^>]*)>\s*<img\s+data-shot="([^"]+)"([^>]*)\/>([\s\S]*?)<\/figure>/g,
    (figure, attributes: string, name: string, rest: string, caption: string) =>
      shots.has(name)
        ? `<figure${attributes}><img src="${shots.get(name)}"${rest}/>${caption}</figure>`
        : '',
  );
  html = html.replace(/<img data-shot="logo"/, `<img src="${shots.get('logo')}"`);
  // For reviewing the layout without a PDF viewer.
  if (process.env.MANUAL_HTML_OUT) fs.writeFileSync(process.env.MANUAL_HTML_OUT, html);
  const printer = await browser.newPage();
  await printer.setContent(html, { waitUntil: 'load' });
  await printer.pdf({
    path: OUTPUT,
    format: 'A4',
    printBackground: true,
    preferCSSPageSize: true,
    displayHeaderFooter: true,
    headerTemplate: '<span></span>',
    footerTemplate:
      '<div style="font-size:8px;color:#6b7785;width:100%;text-align:center">Instructivo de Premios · página <span class="pageNumber"></span> de <span class="totalPages"></span></div>',
  });
  await printer.close();
  const size = fs.statSync(OUTPUT).size;
  process.stdout.write(
    `Wrote ${path.relative(root, OUTPUT)} (${Math.round(size / 1024)} KB, ${shots.size - 1} screenshots)\n`,
  );
  if (missing.length > 0) {
    process.stdout.write(`Left out (screen not reachable): ${missing.join(', ')}\n`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await server.stop();
  if (ownWebBuild) fs.rmSync(webDir, { recursive: true, force: true });
}
