import * as api from '../../../shared/api/registry.ts';
import { MSG } from '../../../shared/messages.ts';
import { REGISTRY_MAX_BYTES } from '../../../shared/registry.ts';
import { OK } from '../../../shared/schemas/common.ts';
import { sendDownload } from '../../http/download.ts';
import { implement, type Route } from '../../http/route.ts';
import { readUploadedFile } from '../../http/upload.ts';
import { importRegistry, previewRegistryImport, registryTemplateXlsx } from './registry-import.ts';
import {
  addReseller,
  editReseller,
  listResellers,
  removeReseller,
  updateRegistrySettings,
} from './service.ts';

const registryUpload = {
  field: 'file',
  maxBytes: REGISTRY_MAX_BYTES,
  noFile: MSG.noLogoFile,
  tooLarge: MSG.registryTooLarge,
};

export const registryRoutes: Route[] = [
  implement(api.listResellers, async ({ deps, query }) => listResellers(deps, query)),
  implement(api.addReseller, async ({ deps, user, body }) =>
    addReseller(deps, { admin: user, values: body }),
  ),
  implement(api.editReseller, async ({ deps, user, params, body }) =>
    editReseller(deps, { admin: user, ...params, values: body }),
  ),
  implement(api.removeReseller, async ({ deps, user, params }) => {
    await removeReseller(deps, { admin: user, ...params });
    return OK;
  }),
  implement(api.updateRegistrySettings, async ({ deps, user, body }) =>
    updateRegistrySettings(deps, { admin: user, settings: body }),
  ),
  implement(api.previewRegistryImport, async ({ deps, request }) =>
    previewRegistryImport(deps, { file: await readUploadedFile(request, registryUpload) }),
  ),
  implement(api.importRegistry, async ({ deps, user, request }) =>
    importRegistry(deps, { admin: user, file: await readUploadedFile(request, registryUpload) }),
  ),
  implement(api.registryTemplate, async ({ reply }) =>
    sendDownload(
      reply,
      'plantilla-padron.xlsx',
      api.registryTemplate.response.mediaType,
      await registryTemplateXlsx(),
    ),
  ),
];
