import { useQuery } from '@tanstack/react-query';
import {
  changePassword,
  disableMfa,
  enableMfa,
  mfaStatus,
  sendMfaEnrolCode,
  startMfaSetup,
} from '../../../shared/api/auth.ts';
import { listAdmins } from '../../../shared/api/admins.ts';
import { sessionQueryKey } from '../../lib/session.ts';
import { endpointKey, endpointQuery, useEndpointMutation } from '../../lib/api.ts';

export const useMfaStatus = () => useQuery(endpointQuery(mfaStatus, {}));

export const useSendMfaEnrolCode = () => useEndpointMutation(sendMfaEnrolCode);
export const useStartMfaSetup = () => useEndpointMutation(startMfaSetup);

/**
 * Turning the second factor on or off changes the status, the administrators list, and the
 * session (REQUIRE_ADMIN_MFA lifts or sets its restriction).
 */
const mfaInvalidates = () => [
  endpointKey(mfaStatus),
  endpointKey(listAdmins),
  [...sessionQueryKey],
];

export const useEnableMfa = () => useEndpointMutation(enableMfa, { invalidates: mfaInvalidates });
export const useDisableMfa = () => useEndpointMutation(disableMfa, { invalidates: mfaInvalidates });

export const useChangePassword = () => useEndpointMutation(changePassword);
