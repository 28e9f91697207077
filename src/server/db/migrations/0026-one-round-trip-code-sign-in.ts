import type { FrozenMigration } from './frozen.ts';

/**
 * PostgreSQL only (docs/decisions/0033): an exhibitor's sign-in with an emailed code as one
 * server-side function, so that the request costs one round trip to the database instead of about
 * ten. It does what `signInWithCode` and `createSession` (modules/auth/service.ts,
 * http/session.ts) do, in the same order: the exhibitor by address, the code's tries counted
 * (per address and client, per address, and the grace of a fresh client past the address's
 * ceiling), the live codes compared, the matching one spent and the others voided, the secrets of
 * the codes already mailed blanked, the session opened and "Último ingreso" stamped.
 *
 * A refusal is an answer, not an error: `{"outcome": "invalid_code"}` or `"tries_exhausted"`, so
 * that the tries counted before it commit with it (a wrong code must count). Everything the
 * application decides (the clock, the throttles' scopes, maxima and window cut-offs, the mail
 * template, the new session's id, token hash and expiry) comes in as arguments, so that the rules
 * keep living in the application's code and this text never needs to change with them.
 */

/**
 * One hit of a fixed-window throttle rule without delays (lib/throttle.ts, `hitThrottle`, for a
 * rule with no `delayAfter`): the same upsert, the window's count when allowed, null when refused
 * (then nothing changed). The row stays locked until the caller's transaction ends, so parallel
 * hits queue on it and a limit of 5 allows exactly 5.
 */
const hitThrottle = `create function premios_hit_throttle(
  p_scope text,
  p_key text,
  p_at text,
  p_window_expired text,
  p_max integer
) returns integer
language plpgsql
as $fn$
declare
  v_hits integer;
begin
  insert into auth_throttle (scope, key, window_start, hits, not_before)
  values (p_scope, p_key, p_at, 1, p_at)
  on conflict (scope, key) do update set
    window_start = case when auth_throttle.window_start <= p_window_expired then p_at
      else auth_throttle.window_start end,
    hits = case when auth_throttle.window_start <= p_window_expired then 1
      else auth_throttle.hits + 1 end,
    not_before = p_at
  where auth_throttle.window_start <= p_window_expired or auth_throttle.hits < p_max
  returning hits into v_hits;
  return v_hits;
end
$fn$`;

const signInWithCode = `create function premios_sign_in_with_code(
  p_email text,
  p_code text,
  p_client text,
  p_now text,
  p_try_client_scope text,
  p_try_client_expired text,
  p_try_client_max integer,
  p_try_address_scope text,
  p_try_address_expired text,
  p_try_address_max integer,
  p_try_grace_scope text,
  p_try_grace_expired text,
  p_try_grace_max integer,
  p_code_mail_template text,
  p_session_id text,
  p_session_token_hash text,
  p_session_expires_at text
) returns json
language plpgsql
as $fn$
declare
  v_exhibitor record;
  v_client_hits integer;
  v_code_id text;
begin
  select id, email, full_name into v_exhibitor from exhibitors where email = p_email;
  if not found then
    return json_build_object('outcome', 'invalid_code');
  end if;

  -- Each try is counted before it is evaluated (lib/throttle.ts, countTry).
  v_client_hits := premios_hit_throttle(p_try_client_scope, v_exhibitor.id || '|' || p_client,
    p_now, p_try_client_expired, p_try_client_max);
  if v_client_hits is null then
    return json_build_object('outcome', 'tries_exhausted');
  end if;
  -- Separate statements, not one boolean expression: SQL promises no order of evaluation, and the
  -- grace rule must be hit only past the address's ceiling and only by a fresh client.
  if premios_hit_throttle(p_try_address_scope, v_exhibitor.id, p_now, p_try_address_expired,
       p_try_address_max) is null then
    if v_client_hits <> 1 then
      return json_build_object('outcome', 'tries_exhausted');
    end if;
    if premios_hit_throttle(p_try_grace_scope, v_exhibitor.id, p_now, p_try_grace_expired,
         p_try_grace_max) is null then
      return json_build_object('outcome', 'tries_exhausted');
    end if;
  end if;

  -- A code is hashed with its row id (auth/service.ts, codeHash): sha256 of "id:code", in hex.
  select c.id into v_code_id from sign_in_codes c
   where c.exhibitor_id = v_exhibitor.id and c.used_at is null and c.voided_at is null
     and c.expires_at > p_now
     and c.code_hash = encode(sha256(convert_to(c.id || ':' || p_code, 'UTF8')), 'hex')
   limit 1;
  if v_code_id is null then
    return json_build_object('outcome', 'invalid_code');
  end if;

  -- Spent once: a parallel sign-in with the same code waits for this row and then finds it used.
  update sign_in_codes set used_at = p_now
   where id = v_code_id and used_at is null and voided_at is null and expires_at > p_now;
  if not found then
    return json_build_object('outcome', 'invalid_code');
  end if;
  update sign_in_codes set voided_at = p_now
   where exhibitor_id = v_exhibitor.id and used_at is null and voided_at is null;
  update mail_outbox set params = '{}'
   where template = p_code_mail_template and to_address = v_exhibitor.email
     and status <> 'pending';

  insert into sessions (id, token_hash, role, admin_id, exhibitor_id, created_at, last_seen_at,
    expires_at)
  values (p_session_id, p_session_token_hash, 'exh', null, v_exhibitor.id, p_now, p_now,
    p_session_expires_at);
  update exhibitors set last_signed_in_at = p_now where id = v_exhibitor.id;

  return json_build_object('outcome', 'signed_in', 'exhibitorId', v_exhibitor.id,
    'email', v_exhibitor.email, 'fullName', v_exhibitor.full_name);
end
$fn$`;

export const migration: FrozenMigration = {
  name: '0026_one_round_trip_code_sign_in',
  steps: [{ sqlite: [], postgres: [hitThrottle, signInWithCode] }],
};
