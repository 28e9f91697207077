import { useQuery } from '@tanstack/react-query';
import { listAdmins, resendAdminInvitation, revokeAdmin } from '../../../shared/api/admins.ts';
import { endpointKey, endpointQuery, useEndpointMutation } from '../../lib/api.ts';

export const useAdmins = () => useQuery(endpointQuery(listAdmins, {}));

/** A re-send or a revocation changes a row of the list. */
const adminsInvalidate = () => [endpointKey(listAdmins)];

export const useResendAdminInvitation = () =>
  useEndpointMutation(resendAdminInvitation, { invalidates: adminsInvalidate });

export const useRevokeAdmin = () =>
  useEndpointMutation(revokeAdmin, { invalidates: adminsInvalidate });
