import { okResponse } from '../schemas/common.ts';
import {
  registryImportResponse,
  registryListQuery,
  registryListResponse,
  registryPreviewResponse,
  registrySettings,
  resellerInput,
  resellerParams,
  resellerView,
} from '../schemas/registry.ts';
import { XLSX_MEDIA_TYPE } from './results.ts';
import { defineEndpoint, file, json } from './define.ts';

/*
 * The programme's reseller registry ("Padrón de resellers", /admin/resellers): one per
 * installation, administrators only.
 */

export const listResellers = defineEndpoint({
  method: 'GET',
  path: '/api/resellers',
  access: 'admin',
  summary:
    'Una página del padrón de resellers, por nombre; q busca en el nombre, la razón social o el ID fiscal',
  query: registryListQuery,
  response: json(registryListResponse),
  errors: [],
});

export const addReseller = defineEndpoint({
  method: 'POST',
  path: '/api/resellers',
  access: 'admin',
  summary: 'Agregar un reseller al padrón (el ID fiscal es único en el padrón)',
  body: resellerInput,
  response: json(resellerView, 201),
  errors: ['conflict'],
});

export const editReseller = defineEndpoint({
  method: 'PUT',
  path: '/api/resellers/:fiscalId',
  access: 'admin',
  summary: 'Editar un reseller del padrón; las nominaciones guardadas no cambian',
  params: resellerParams,
  body: resellerInput,
  response: json(resellerView),
  errors: ['not_found', 'conflict'],
});

export const removeReseller = defineEndpoint({
  method: 'DELETE',
  path: '/api/resellers/:fiscalId',
  access: 'admin',
  summary: 'Quitar un reseller del padrón; las nominaciones guardadas no cambian',
  params: resellerParams,
  response: json(okResponse),
  errors: ['not_found'],
});

export const updateRegistrySettings = defineEndpoint({
  method: 'PUT',
  path: '/api/resellers/settings',
  access: 'admin',
  summary:
    '"Validar CUIT en el padrón": el formulario y la importación del padrón comprueban el dígito verificador',
  body: registrySettings,
  response: json(registrySettings),
  errors: [],
});

/** The file of an import: a CSV or an xlsx, read by its extension and checked by its content. */
const registryUpload = { field: 'file', mediaType: 'text/csv' };

export const previewRegistryImport = defineEndpoint({
  method: 'POST',
  path: '/api/resellers/import/preview',
  access: 'admin',
  summary:
    'Vista previa de la importación del padrón: multipart con un CSV o xlsx ("file"); cada fila con su estado, sin guardar nada',
  upload: registryUpload,
  response: json(registryPreviewResponse),
  errors: ['file_too_large', 'body_too_large', 'unsupported_media_type'],
});

export const importRegistry = defineEndpoint({
  method: 'POST',
  path: '/api/resellers/import',
  access: 'admin',
  summary:
    'Importar el padrón: agrega y actualiza las filas válidas del archivo en una transacción (todo o nada)',
  upload: registryUpload,
  response: json(registryImportResponse),
  errors: ['file_too_large', 'body_too_large', 'unsupported_media_type'],
});

export const registryTemplate = defineEndpoint({
  method: 'GET',
  path: '/api/resellers/import-template',
  access: 'admin',
  summary: 'Plantilla xlsx para importar el padrón (ID fiscal, Nombre del reseller, Razón social…)',
  response: file(XLSX_MEDIA_TYPE),
  errors: [],
});

export const registryEndpoints = [
  listResellers,
  addReseller,
  editReseller,
  removeReseller,
  updateRegistrySettings,
  previewRegistryImport,
  importRegistry,
  registryTemplate,
];
