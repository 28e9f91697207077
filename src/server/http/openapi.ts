import { z, type ZodType } from 'zod';
import type { Route } from './route.ts';

function jsonSchema(schema: ZodType | undefined): unknown {
  if (!schema) return undefined;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
}

/** OpenAPI 3.1 document generated from the route table's Zod schemas. */
export function openApiDocument(routes: Route[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameters = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((match) => ({
      name: match[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      summary: route.summary,
      'x-access': route.access,
      parameters,
      ...(route.query ? { 'x-query-schema': jsonSchema(route.query) } : {}),
      ...(route.body
        ? { requestBody: { content: { 'application/json': { schema: jsonSchema(route.body) } } } }
        : {}),
      responses: {
        '200': {
          description: 'OK',
          ...(route.response
            ? { content: { 'application/json': { schema: jsonSchema(route.response) } } }
            : {}),
        },
        default: { description: 'Error: { error: { code, message, fields? } }' },
      },
    };
  }
  return { openapi: '3.1.0', info: { title: 'Premios API', version: '1' }, paths };
}

/** A script-free HTML page listing every operation (the CSP allows no inline script). */
export function apiDocsHtml(routes: Route[]): string {
  const escape = (s: string) =>
    s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const rows = routes
    .map(
      (r) =>
        `<tr><td><code>${r.method}</code></td><td><code>${escape(r.url)}</code></td><td>${r.access}</td><td>${escape(r.summary)}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Premios API</title></head><body style="font-family:sans-serif;margin:2rem"><h1>Premios API</h1><p>Documento OpenAPI: <a href="/api/openapi.json">/api/openapi.json</a>. Errores: <code>{ "error": { "code", "message", "fields" } }</code>.</p><table border="1" cellpadding="6" style="border-collapse:collapse"><thead><tr><th>Método</th><th>Ruta</th><th>Acceso</th><th>Descripción</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
}
