import * as api from '../../../shared/api/exhibitors.ts';
import { MSG } from '../../../shared/messages.ts';
import { ROSTER_MAX_BYTES } from '../../../shared/roster-messages.ts';
import { OK } from '../../../shared/schemas/common.ts';
import { sendDownload } from '../../http/download.ts';
import { implement, type Route } from '../../http/route.ts';
import { readUploadedFile } from '../../http/upload.ts';
import { rosterTemplateXlsx } from './roster-file.ts';
import { importRoster, previewRoster } from './roster-import.ts';
import { bulkRemovalImpact, removeExhibitors, resendInvitations } from './roster-bulk.ts';
import {
  addExhibitor,
  countNominations,
  countPendingInvitations,
  editExhibitor,
  listEventExhibitors,
  removeExhibitor,
  resendInvitation,
  sendPendingInvitations,
} from './service.ts';

const rosterUpload = {
  field: 'file',
  maxBytes: ROSTER_MAX_BYTES,
  noFile: MSG.noLogoFile,
  tooLarge: MSG.rosterTooLarge,
};

export const exhibitorsRoutes: Route[] = [
  implement(api.listEventExhibitors, async ({ deps, params, query }) =>
    listEventExhibitors(deps, { ...params, ...query }),
  ),
  implement(api.resendInvitations, async ({ deps, user, params, body }) =>
    resendInvitations(deps, { admin: user, ...params, ...body }),
  ),
  implement(api.bulkRemovalImpact, async ({ deps, params, body }) =>
    bulkRemovalImpact(deps, { ...params, ...body }),
  ),
  implement(api.removeExhibitors, async ({ deps, user, params, body }) =>
    removeExhibitors(deps, { admin: user, ...params, ...body }),
  ),
  implement(api.addExhibitor, async ({ deps, user, params, body }) =>
    addExhibitor(deps, { admin: user, ...params, fields: body }),
  ),
  implement(api.editExhibitor, async ({ deps, user, params, body }) =>
    editExhibitor(deps, { admin: user, ...params, fields: body }),
  ),
  implement(api.removeExhibitor, async ({ deps, user, params }) => {
    await removeExhibitor(deps, { admin: user, ...params });
    return OK;
  }),
  implement(api.removalImpact, async ({ deps, params }) => ({
    nominations: await countNominations(deps, params),
  })),
  implement(api.resendInvitation, async ({ deps, user, params }) =>
    resendInvitation(deps, { admin: user, ...params }),
  ),
  implement(api.pendingInvitations, async ({ deps, params }) => ({
    pending: await countPendingInvitations(deps, params),
  })),
  implement(api.sendPendingInvitations, async ({ deps, user, params }) =>
    sendPendingInvitations(deps, { admin: user, ...params }),
  ),
  implement(api.previewRoster, async ({ deps, params, request }) =>
    previewRoster(deps, { ...params, file: await readUploadedFile(request, rosterUpload) }),
  ),
  implement(api.importRoster, async ({ deps, user, params, query, request }) =>
    importRoster(deps, {
      admin: user,
      ...params,
      file: await readUploadedFile(request, rosterUpload),
      sendInvitations: query.sendInvitations === 'true',
    }),
  ),
  implement(api.rosterTemplate, async ({ reply }) =>
    sendDownload(
      reply,
      'plantilla-expositores.xlsx',
      api.rosterTemplate.response.mediaType,
      await rosterTemplateXlsx(),
    ),
  ),
];
