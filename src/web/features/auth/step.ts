/**
 * What the first sign-in steps (/signin, /signin/code) need to send, loaded after they paint: the
 * contract and schemas (Zod), the API client, the Spanish catalogue and where to go after signing
 * in. The email step starts loading it when the visitor starts using its form, the code step as
 * soon as it shows; a failed load is tried again on the next submit.
 */
let loading: Promise<SignInStep> | undefined;

async function load() {
  const [contract, schemas, http, messages, returnTo] = await Promise.all([
    import('../../../shared/api/auth.ts'),
    import('../../../shared/schemas/auth.ts'),
    import('../../lib/http.ts'),
    import('../../../shared/messages.ts'),
    import('../../lib/return-to.ts'),
  ]);
  return {
    contract,
    schemas,
    ...http,
    MSG: messages.MSG,
    rememberReturnPath: returnTo.rememberReturnPath,
  };
}
type SignInStep = Awaited<ReturnType<typeof load>>;

export function loadSignInStep(): Promise<SignInStep> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
