import { exhListParams } from '../schemas/nominations.ts';
import { registrySearchQuery, registrySearchResponse } from '../schemas/registry-search.ts';
import { defineEndpoint, json } from './define.ts';

/**
 * "Buscar en el padrón" in the exhibitor's nominee form: registry entries matching `q` (from two
 * characters) and the exhibitor's own earlier nominees ("Mis nominaciones anteriores"), never
 * another exhibitor's nominations. Only in the exhibitor's own events (404 otherwise).
 */
export const searchRegistryAsExhibitor = defineEndpoint({
  method: 'GET',
  path: '/api/exh/events/:eventId/:category/registry-search',
  access: 'exhibitor',
  summary:
    'Buscar en el padrón (expositor): hasta 8 resellers del padrón y sus propias nominaciones anteriores',
  params: exhListParams,
  query: registrySearchQuery,
  response: json(registrySearchResponse),
  errors: ['not_found'],
});

/** "Buscar en el padrón" in the administrator's "Editar voto" and "Editar nominación". */
export const searchRegistryAsAdmin = defineEndpoint({
  method: 'GET',
  path: '/api/registry-search',
  access: 'admin',
  summary: 'Buscar en el padrón (administrador): hasta 8 resellers del padrón',
  query: registrySearchQuery,
  response: json(registrySearchResponse),
  errors: [],
});

export const registrySearchEndpoints = [searchRegistryAsExhibitor, searchRegistryAsAdmin] as const;
