/** The email carried from /signin to the code and password steps (router navigation state). */
export interface SignInState {
  email: string;
}

export function signInEmailFrom(state: unknown): string | null {
  const email = (state as Partial<SignInState> | null)?.email;
  return typeof email === 'string' && email ? email : null;
}

/**
 * Marks a field required (native `required`, so aria-required) without MUI's asterisk, which
 * would become part of the label text: "Contraseña" must stay exactly "Contraseña".
 */
export const requiredInput = { htmlInput: { required: true } } as const;
