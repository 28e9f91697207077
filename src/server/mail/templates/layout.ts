export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export interface MailBody {
  subject: string;
  /** Paragraphs of plain text; each is escaped for HTML. */
  paragraphs: string[];
  /** A large highlighted value, e.g. a sign-in code. */
  highlight?: string;
  /** Plain-text paragraphs between the highlighted value and the button (what the button offers). */
  afterHighlight?: string[];
  action?: { label: string; url: string };
  footer?: string;
}

/** The one look of every message: logo (inline, cid:logo), paragraphs, optional button. */
export function layout(body: MailBody): RenderedMail {
  const htmlParagraphs = (texts: readonly string[]) =>
    texts
      .map((p) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${escapeHtml(p)}</p>`)
      .join('');
  const paragraphs = htmlParagraphs(body.paragraphs);
  const afterHighlight = htmlParagraphs(body.afterHighlight ?? []);
  const highlight = body.highlight
    ? `<p style="margin:24px 0;font-size:36px;font-weight:700;letter-spacing:8px;text-align:center">${escapeHtml(body.highlight)}</p>`
    : '';
  const action = body.action
    ? `<p style="margin:24px 0;text-align:center"><a href="${escapeHtml(body.action.url)}" style="background:#1565c0;color:#ffffff;padding:12px 24px;border-radius:6px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(body.action.label)}</a></p><p style="font-size:13px;color:#555;word-break:break-all">${escapeHtml(body.action.url)}</p>`
    : '';
  const footer = body.footer
    ? `<p style="margin-top:32px;font-size:13px;color:#666">${escapeHtml(body.footer)}</p>`
    : '';
  const html = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(body.subject)}</title></head><body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1a1a1a"><div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px"><p style="text-align:center;margin:0 0 24px"><img src="cid:logo" alt="Logo" style="max-height:64px;max-width:240px"></p>${paragraphs}${highlight}${afterHighlight}${action}${footer}</div></body></html>`;
  const text = [
    ...body.paragraphs,
    ...(body.highlight ? [body.highlight] : []),
    ...(body.afterHighlight ?? []),
    ...(body.action ? [`${body.action.label}: ${body.action.url}`] : []),
    ...(body.footer ? [body.footer] : []),
  ].join('\n\n');
  return { subject: body.subject, html, text };
}
