import type { FrozenMigration } from './frozen.ts';

/**
 * PostgreSQL only (docs/decisions/0040): an exhibitor's email step (a code asked for by address)
 * as one server-side function, so that the request costs one round trip to the database instead
 * of seven. It does what `sendAccessCode` (modules/auth/service.ts) does, in the same order: the
 * exhibitor by address, the code's sendings counted per (address, client), with its wait between
 * two, and per address, then the code and its mail written together.
 *
 * The answer is `{"outcome": …}`: "not_exhibitor" (the address is nobody's code to send: the
 * application goes on to the administrators), "sent", "waiting" (the client asked again within its
 * wait: the code on its way will do), "live" (the address is past its ceiling but a code mailed to
 * it still works) or "limited". A refusal is an answer, not an error, so the counts it made commit
 * with it. Everything the application decides (the clock, the rules' scopes, maxima, window
 * cut-offs and waits, the code's id, hashes and expiry, the message's id, template and
 * parameters) comes in as arguments; the code itself never reaches the database except inside the
 * message's parameters, as on the ordinary path.
 */

/**
 * One hit of a fixed-window throttle rule with a wait between hits (lib/throttle.ts,
 * `hitThrottle`): the same upsert, where `p_not_before[n]` is the instant the hit after the n-th
 * of a window waits for (the last element for every later hit). The window's count when allowed,
 * null when refused (then nothing changed). The row stays locked until the caller's transaction
 * ends, so parallel hits queue on it.
 */
const hitSpacedThrottle = `create function premios_hit_spaced_throttle(
  p_scope text,
  p_key text,
  p_at text,
  p_window_expired text,
  p_max integer,
  p_not_before text[]
) returns integer
language plpgsql
as $fn$
declare
  v_hits integer;
begin
  insert into auth_throttle (scope, key, window_start, hits, not_before)
  values (p_scope, p_key, p_at, 1, p_not_before[1])
  on conflict (scope, key) do update set
    window_start = case when auth_throttle.window_start <= p_window_expired then p_at
      else auth_throttle.window_start end,
    hits = case when auth_throttle.window_start <= p_window_expired then 1
      else auth_throttle.hits + 1 end,
    not_before = case when auth_throttle.window_start <= p_window_expired then p_not_before[1]
      else p_not_before[least(auth_throttle.hits + 1, cardinality(p_not_before))] end
  where auth_throttle.window_start <= p_window_expired
     or (auth_throttle.hits < p_max and auth_throttle.not_before <= p_at)
  returning hits into v_hits;
  return v_hits;
end
$fn$`;

const requestSignInCode = `create function premios_request_sign_in_code(
  p_email text,
  p_client text,
  p_now text,
  p_send_client_scope text,
  p_send_client_expired text,
  p_send_client_max integer,
  p_send_client_not_before text[],
  p_send_address_scope text,
  p_send_address_expired text,
  p_send_address_max integer,
  p_code_id text,
  p_code_hash text,
  p_link_hash text,
  p_code_expires_at text,
  p_mail_id text,
  p_mail_template text,
  p_mail_params text
) returns json
language plpgsql
as $fn$
declare
  v_exhibitor record;
  v_client_key text;
  v_waiting boolean;
begin
  select id, email into v_exhibitor from exhibitors where email = p_email;
  if not found then
    return json_build_object('outcome', 'not_exhibitor');
  end if;

  v_client_key := v_exhibitor.id || '|' || p_client;
  if premios_hit_spaced_throttle(p_send_client_scope, v_client_key, p_now, p_send_client_expired,
       p_send_client_max, p_send_client_not_before) is null then
    -- Why it refused (lib/throttle.ts, throttleRefusal): a window still open whose wait has not
    -- passed is "waiting"; a window used up is "limited".
    select t.window_start > p_send_client_expired and t.not_before > p_now into v_waiting
      from auth_throttle t where t.scope = p_send_client_scope and t.key = v_client_key;
    return json_build_object('outcome',
      case when coalesce(v_waiting, false) then 'waiting' else 'limited' end);
  end if;

  if premios_hit_throttle(p_send_address_scope, v_exhibitor.id, p_now, p_send_address_expired,
       p_send_address_max) is null then
    perform 1 from sign_in_codes c
     where c.exhibitor_id = v_exhibitor.id and c.used_at is null and c.voided_at is null
       and c.expires_at > p_now;
    return json_build_object('outcome', case when found then 'live' else 'limited' end);
  end if;

  insert into sign_in_codes (id, exhibitor_id, code_hash, link_hash, expires_at, used_at,
    voided_at, created_at)
  values (p_code_id, v_exhibitor.id, p_code_hash, p_link_hash, p_code_expires_at, null, null,
    p_now);
  insert into mail_outbox (id, template, params, to_address, status, attempts, next_attempt_at,
    locked_until, last_error, subject, sent_at, event_id, exhibitor_id, created_at)
  values (p_mail_id, p_mail_template, p_mail_params, v_exhibitor.email, 'pending', 0, p_now,
    null, null, null, null, null, v_exhibitor.id, p_now);
  return json_build_object('outcome', 'sent');
end
$fn$`;

export const migration: FrozenMigration = {
  name: '0033_one_round_trip_code_request',
  steps: [{ sqlite: [], postgres: [hitSpacedThrottle, requestSignInCode] }],
};
