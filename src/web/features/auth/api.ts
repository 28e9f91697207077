import type {
  AcceptInvitationInput,
  InvitationResponse,
  PasswordResetConfirmInput,
  SignedInResponse,
  SignInStartResponse,
} from '../../../shared/schemas/auth.ts';
import { api } from '../../lib/api.ts';

/** The email carried from /signin to the code and password steps (router navigation state). */
export interface SignInState {
  email: string;
}

export function signInEmailFrom(state: unknown): string | null {
  const email = (state as Partial<SignInState> | null)?.email;
  return typeof email === 'string' && email ? email : null;
}

export const authApi = {
  start: (email: string) => api.post<SignInStartResponse>('/api/auth/start', { email }),
  enterCode: (email: string, code: string) =>
    api.post<SignedInResponse>('/api/auth/code', { email, code }),
  followLink: (token: string) => api.post<SignedInResponse>('/api/auth/link', { token }),
  enterPassword: (email: string, password: string) =>
    api.post<SignedInResponse>('/api/auth/password', { email, password }),
  requestReset: (email: string) => api.post<{ ok: true }>('/api/auth/password-reset', { email }),
  confirmReset: (input: PasswordResetConfirmInput) =>
    api.post<{ ok: true }>('/api/auth/password-reset/confirm', input),
  invitation: (token: string) =>
    api.get<InvitationResponse>(`/api/admins/invitation?token=${encodeURIComponent(token)}`),
  acceptInvitation: (input: AcceptInvitationInput) =>
    api.post<SignedInResponse>('/api/admins/invitation', input),
};

/**
 * Marks a field required (native `required`, so aria-required) without MUI's asterisk, which
 * would become part of the label text: "Contraseña" must stay exactly "Contraseña".
 */
export const requiredInput = { htmlInput: { required: true } } as const;
