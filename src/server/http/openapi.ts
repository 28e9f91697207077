import { z, type ZodType } from 'zod';
import { errorsOf, reads, type Endpoint } from '../../shared/api/define.ts';
import { SESSION_COOKIE } from '../../shared/constants.ts';
import { API_ERRORS, type ApiErrorCode } from '../../shared/errors.ts';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

/** The parameters of one location (path or query) from an object schema's properties. */
function parameters(schema: ZodType, location: 'path' | 'query'): JsonSchema[] {
  if (!reads(schema)) return [];
  const object = schemaOf(schema, 'input');
  const properties = object.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  const required = new Set(Array.isArray(object.required) ? object.required : []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
  }));
}

const errorSchema = (codes: ApiErrorCode[]): JsonSchema => ({
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: codes },
        message: { type: 'string', description: 'Mensaje en español para el usuario' },
        fields: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'Mensaje de cada campo con problemas',
        },
      },
    },
  },
});

/** The failure answers of an endpoint, grouped by status, each listing its possible codes. */
function errorResponses(endpoint: Endpoint): Record<string, JsonSchema> {
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of errorsOf(endpoint)) {
    const status = API_ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: list.join(', '),
      content: { 'application/json': { schema: errorSchema(list) } },
    };
  }
  return responses;
}

function operation(endpoint: Endpoint): JsonSchema {
  const success =
    endpoint.response.kind === 'json'
      ? {
          [String(endpoint.response.status)]: {
            description: endpoint.response.status === 201 ? 'Creado' : 'OK',
            content: {
              'application/json': { schema: schemaOf(endpoint.response.schema, 'output') },
            },
          },
        }
      : {
          '200': {
            description: 'Archivo',
            content: {
              [endpoint.response.mediaType]: { schema: { type: 'string', format: 'binary' } },
            },
          },
        };
  const requestBody = endpoint.upload
    ? {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: [endpoint.upload.field],
              properties: {
                [endpoint.upload.field]: {
                  type: 'string',
                  format: 'binary',
                  contentMediaType: endpoint.upload.mediaType,
                },
              },
            },
          },
        },
      }
    : reads(endpoint.body)
      ? {
          required: true,
          content: { 'application/json': { schema: schemaOf(endpoint.body, 'input') } },
        }
      : undefined;
  return {
    summary: endpoint.summary,
    'x-access': endpoint.access,
    ...(endpoint.access === 'public' ? { security: [] } : {}),
    parameters: [...parameters(endpoint.params, 'path'), ...parameters(endpoint.query, 'query')],
    ...(requestBody ? { requestBody } : {}),
    responses: { ...success, ...errorResponses(endpoint) },
  };
}

/** OpenAPI 3.1 document of the given endpoints, from their contracts. */
export function openApiDocument(endpoints: readonly Endpoint[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const endpoint of endpoints) {
    const path = endpoint.path.replace(/:([A-Za-z]+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][endpoint.method.toLowerCase()] = operation(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Premios API',
      version: '1',
      description:
        'Las operaciones que cambian datos llevan la cabecera `X-Requested-With: premios`. ' +
        'Cada error responde `{ error: { code, message, fields? } }`.',
    },
    components: {
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
    },
    security: [{ session: [] }],
    paths,
  };
}

/**
 * The API reference page: Swagger UI, loaded only here, started by a script of our own (the
 * Content-Security-Policy allows no inline script).
 */
export const API_DOCS_HTML = `<!doctype html>
<html lang="es">
  <head>
    <meta charset="utf-8" />
    <title>Premios API</title>
    <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/api/docs/start.js"></script>
  </body>
</html>
`;

export const API_DOCS_START_JS = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  supportedSubmitMethods: [],
});
`;
