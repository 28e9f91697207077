import type { FrozenMigration } from './frozen.ts';

/**
 * Migrations 0023 ("Solo los del padrón", "Validar CUIT") and 0024 (annulled lists) were written
 * side by side, each replacing PostgreSQL's `premios_save_nominee` of 0021 with its own change;
 * run in order, 0024's function dropped 0023's. This one holds both: an add or edit in an event
 * that restricts fiscal ids answers "ordinary" (the ordinary path checks them), and an annulled
 * list is refused whatever version was read.
 */
const saveNominee = `create function premios_save_nominee(
  p_token_hash text,
  p_now text,
  p_idle_cutoff text,
  p_touch_cutoff text,
  p_event_id text,
  p_category text,
  p_app_time_zone text,
  p_action text,
  p_fiscal_id text,
  p_nominee json,
  p_direction text,
  p_expected integer,
  p_max_nominees integer,
  p_archive_lock_class integer,
  p_audit_action text,
  p_receipt_template text,
  p_receipt_at text,
  p_receipt_id text
) returns json
language plpgsql
as $fn$
declare
  v_session record;
  v_exhibitor text;
  v_target record;
  v_version integer;
  v_count integer;
  v_position integer;
  v_first integer;
  v_rows nominations[];
  v_before json;
  v_after json;
  v_queued boolean := false;
  v_annulled_reason text;
begin
  select s.id, s.role, s.last_seen_at, s.expires_at, x.id as exhibitor_id
    into v_session
    from sessions s left join exhibitors x on x.id = s.exhibitor_id
   where s.token_hash = p_token_hash;
  if not found or v_session.role <> 'exh' or v_session.exhibitor_id is null
     or v_session.expires_at::timestamptz <= p_now::timestamptz
     or v_session.last_seen_at::timestamptz <= p_idle_cutoff::timestamptz then
    return json_build_object('outcome', 'session');
  end if;
  v_exhibitor := v_session.exhibitor_id;
  if v_session.last_seen_at::timestamptz < p_touch_cutoff::timestamptz then
    update sessions set last_seen_at = p_now where id = v_session.id;
  end if;

  perform pg_advisory_xact_lock_shared(p_archive_lock_class, hashtext(p_event_id));
  select e.vote_deadline, e.close_time, e.time_zone, e.voting_opens_at, e.voting_closed_at,
         e.archived_at, e.nominee_fields, e.nominable_resellers, e.validate_cuit, x.email
    into v_target
    from events e
    join event_exhibitors m on m.event_id = e.id
    join exhibitors x on x.id = m.exhibitor_id
   where e.id = p_event_id and m.exhibitor_id = v_exhibitor and m.invited_at is not null
     for no key update of m;
  -- A draft (before its opening) is hidden from its exhibitors: the same 404.
  if not found or (v_target.voting_opens_at is not null
                   and p_now::timestamptz < v_target.voting_opens_at::timestamptz) then
    return json_build_object('outcome', 'not_found');
  end if;
  if v_target.archived_at is not null then
    return json_build_object('outcome', 'event_archived');
  end if;
  if (v_target.voting_closed_at is not null
      and p_now::timestamptz >= v_target.voting_closed_at::timestamptz)
     or p_now::timestamptz >= (v_target.vote_deadline || ' ' || v_target.close_time)::timestamp
          at time zone coalesce(v_target.time_zone, p_app_time_zone) + interval '1 minute' then
    return json_build_object('outcome', 'voting_closed');
  end if;
  -- An event that makes a nominee field optional or leaves it out: the ordinary path applies its
  -- "Datos del nominado" (a field not asked keeps what the entry holds), having changed nothing.
  if p_action in ('add', 'edit') and exists (
       select 1 from json_each_text(v_target.nominee_fields::json) f
        where f.value in ('optional', 'hidden')) then
    return json_build_object('outcome', 'ordinary');
  end if;
  -- "Solo los del padrón" and "Validar CUIT" (migration 0023): the ordinary path checks the
  -- fiscal id against the registry and its check digit, having changed nothing here.
  if p_action in ('add', 'edit')
     and (v_target.nominable_resellers <> 'any' or v_target.validate_cuit <> 0) then
    return json_build_object('outcome', 'ordinary');
  end if;

  select version, annulled_reason into v_version, v_annulled_reason from nomination_lists
   where event_id = p_event_id and exhibitor_id = v_exhibitor and category = p_category
     for update;
  -- An annulled list stays as the organisation annulled it: refused whatever version was read.
  if v_annulled_reason is not null then
    return json_build_object('outcome', 'list_annulled', 'reason', v_annulled_reason);
  end if;
  if coalesce(v_version, 0) <> p_expected then
    return json_build_object('outcome', 'stale_list');
  end if;

  select array_agg(n order by n.list_order) into v_rows from nominations n
   where n.event_id = p_event_id and n.exhibitor_id = v_exhibitor and n.category = p_category;
  v_count := coalesce(array_length(v_rows, 1), 0);
  select min(r.list_order) into v_position from unnest(v_rows) r where r.fiscal_id = p_fiscal_id;
  if p_action = 'add' then
    if v_position is not null then
      return json_build_object('outcome', 'duplicate_fiscal_id');
    end if;
    if v_count >= p_max_nominees then
      return json_build_object('outcome', 'nomination_limit');
    end if;
  elsif v_position is null then
    return json_build_object('outcome', 'entry_not_found');
  elsif p_action = 'move' then
    v_first := case when p_direction = 'up' then v_position - 1 else v_position end;
    if v_first < 1 or v_first + 1 > v_count then
      return json_build_object('outcome', 'bad_move');
    end if;
  end if;

  select coalesce(json_agg(json_build_object(
           'order', r.list_order, 'name', r.name, 'registeredName', r.registered_name,
           'fiscalId', r.fiscal_id, 'contactName', r.contact_name,
           'contactPosition', r.contact_position, 'phone', r.phone, 'email', r.email,
           'location', r.location, 'city', r.city) order by r.list_order), '[]'::json)
    into v_before from unnest(v_rows) r;

  -- The claim. A list's first save creates its row from the membership row (locked above).
  if p_expected = 0 then
    insert into nomination_lists (event_id, exhibitor_id, category, version, updated_at)
    select event_id, exhibitor_id, p_category, 0, p_now from event_exhibitors
     where event_id = p_event_id and exhibitor_id = v_exhibitor
    on conflict (event_id, exhibitor_id, category) do nothing;
  end if;
  update nomination_lists set version = version + 1, updated_at = p_now
   where event_id = p_event_id and exhibitor_id = v_exhibitor and category = p_category
     and version = p_expected and annulled_reason is null;
  if not found then
    return json_build_object('outcome', 'stale_list');
  end if;

  if p_action = 'add' then
    insert into nominations (event_id, exhibitor_id, category, list_order, fiscal_id, name,
      registered_name, contact_name, contact_position, phone, email, location, city,
      nominated_at, updated_at)
    values (p_event_id, v_exhibitor, p_category, v_count + 1, p_fiscal_id, p_nominee->>'name',
      p_nominee->>'registered_name', p_nominee->>'contact_name',
      p_nominee->>'contact_position', p_nominee->>'phone', p_nominee->>'email',
      p_nominee->>'location', p_nominee->>'city', p_now, p_now);
  elsif p_action = 'edit' then
    update nominations set name = p_nominee->>'name',
      registered_name = p_nominee->>'registered_name',
      contact_name = p_nominee->>'contact_name',
      contact_position = p_nominee->>'contact_position', phone = p_nominee->>'phone',
      email = p_nominee->>'email', location = p_nominee->>'location',
      city = p_nominee->>'city', updated_at = p_now
     where event_id = p_event_id and exhibitor_id = v_exhibitor and category = p_category
       and list_order = v_position;
  else
    -- list_order is part of the primary key: renumbered rows are deleted and inserted again,
    -- keeping their nominated_at (the ranking's tie-break), as the ordinary path does.
    if p_action = 'remove' then
      v_first := v_position;
    end if;
    delete from nominations
     where event_id = p_event_id and exhibitor_id = v_exhibitor and category = p_category
       and list_order >= v_first
       and list_order <= case when p_action = 'move' then v_first + 1 else v_count end;
    insert into nominations (event_id, exhibitor_id, category, list_order, fiscal_id, name,
      registered_name, contact_name, contact_position, phone, email, location, city,
      nominated_at, updated_at)
    select r.event_id, r.exhibitor_id, r.category,
           case when p_action = 'remove' then r.list_order - 1
                when r.list_order = v_first then v_first + 1 else v_first end,
           r.fiscal_id, r.name, r.registered_name, r.contact_name, r.contact_position, r.phone,
           r.email, r.location, r.city, r.nominated_at, r.updated_at
      from unnest(v_rows) r
     where (p_action = 'remove' and r.list_order > v_first)
        or (p_action = 'move' and r.list_order in (v_first, v_first + 1));
  end if;

  select coalesce(json_agg(json_build_object(
           'order', n.list_order, 'name', n.name, 'registeredName', n.registered_name,
           'fiscalId', n.fiscal_id, 'contactName', n.contact_name,
           'contactPosition', n.contact_position, 'phone', n.phone, 'email', n.email,
           'location', n.location, 'city', n.city) order by n.list_order), '[]'::json)
    into v_after from nominations n
   where n.event_id = p_event_id and n.exhibitor_id = v_exhibitor and n.category = p_category;

  insert into audit_log (at, actor_role, actor_id, actor_email, action, entity_type, entity_id,
    event_id, details)
  values (p_now, 'exh', v_exhibitor, null, p_audit_action, 'nomination_list',
    v_exhibitor || '/' || p_category, p_event_id,
    json_build_object('exhibitorId', v_exhibitor, 'category', p_category,
      'before', v_before, 'after', v_after)::text);

  update mail_outbox set next_attempt_at = p_receipt_at, to_address = v_target.email
   where status = 'pending' and template = p_receipt_template and event_id = p_event_id
     and exhibitor_id = v_exhibitor and locked_until is null;
  if not found then
    insert into mail_outbox (id, template, params, to_address, status, attempts,
      next_attempt_at, locked_until, last_error, subject, sent_at, event_id, exhibitor_id,
      created_at)
    values (p_receipt_id, p_receipt_template,
      '{"eventId":' || to_json(p_event_id)::text || ',"exhibitorId":'
        || to_json(v_exhibitor)::text || '}',
      v_target.email, 'pending', 0, p_receipt_at, null, null, null, null, p_event_id,
      v_exhibitor, p_now);
    v_queued := true;
  end if;

  return json_build_object('outcome', 'saved', 'after', v_after, 'queued', v_queued);
end
$fn$`;

export const migration: FrozenMigration = {
  name: '0027_save_follows_registry_and_annulment',
  steps: [
    {
      sqlite: [],
      postgres: [
        'drop function premios_save_nominee(text, text, text, text, text, text, text, text, text, json, text, integer, integer, integer, text, text, text, text)',
        saveNominee,
      ],
    },
  ],
};
