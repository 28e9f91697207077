import type { FrozenMigration } from './frozen.ts';

/**
 * Categories become data (issue 26, docs/decisions/0034). `event_categories` holds each event's
 * categories in order: the address used in routes and in every `category` column, the name shown,
 * the description, how many nominees an exhibitor may put in it (1 to 10) and how a vote counts
 * ('place': the first of n nominees earns n points, the last 1; 'one': one point per nomination).
 * Every existing event gets the specification's two, CONSUMO and VALOR AGREGADO, 5 nominees by
 * place, so every total already stored keeps its value (5 + 1 − rank = 6 − rank).
 *
 * A list's category must be one of its event's (a foreign key instead of the old fixed check), a
 * list may hold up to 10 nominees, and nominee_totals counts the places 6 to 10 too. The totals
 * triggers take a vote's points from its category's row. SQLite cannot drop a check: its two
 * tables are rebuilt (foreign keys off, inside one transaction), their indexes and the triggers of
 * migration 0024 created again; PostgreSQL replaces the constraints in place.
 *
 * PostgreSQL's `premios_save_nominee` (0027's text) takes the limit from the category's row, which
 * it locks for share: a change of the limit or the scoring locks it for update, so the two are
 * serialised. An unknown category answers `category_not_found`. `p_max_nominees` is gone.
 */

const PLACES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const placeColumns = PLACES.map((place) => `p${place}`).join(', ');

/** What the vote in row `row` ('new' or 'old') is worth by its category (0 once it is gone). */
const pointsOf = (row: string) =>
  `coalesce((select case when c.scoring = 'one' then 1 else c.nominee_limit + 1 - ${row}.list_order end from event_categories c where c.event_id = ${row}.event_id and c.address = ${row}.category), 0)`;
const placeFlags = (row: string) =>
  PLACES.map((place) => `case when ${row}.list_order = ${place} then 1 else 0 end`).join(', ');
const addPlaces = PLACES.map(
  (place) => `p${place} = nominee_totals.p${place} + excluded.p${place}`,
).join(',\n      ');
const subtractPlaces = PLACES.map(
  (place) => `p${place} = p${place} - case when old.list_order = ${place} then 1 else 0 end`,
).join(',\n      ');
const sameTotalsRow = (row: string) =>
  `nominee_totals.event_id = ${row}.event_id and nominee_totals.category = ${row}.category and nominee_totals.fiscal_id = ${row}.fiscal_id`;
const earliestRemaining = `(select n.nominated_at || n.exhibitor_id
      from nominations n
      where n.event_id = old.event_id and n.category = old.category and n.fiscal_id = old.fiscal_id and n.annulled = 0
      order by n.nominated_at, n.exhibitor_id
      limit 1)`;

const insertTotals = (
  least: string,
) => `insert into nominee_totals (event_id, category, fiscal_id, points, ${placeColumns}, nominations, first_key)
    values (new.event_id, new.category, new.fiscal_id, ${pointsOf('new')},
      ${placeFlags('new')},
      1, new.nominated_at || new.exhibitor_id)
    on conflict (event_id, category, fiscal_id) do update set
      points = nominee_totals.points + excluded.points,
      ${addPlaces},
      nominations = nominee_totals.nominations + 1,
      first_key = ${least}(nominee_totals.first_key, excluded.first_key);`;

const sqliteSubtract = `delete from nominee_totals where ${sameTotalsRow('old')} and nominations <= 1;
    update nominee_totals set
      points = points - ${pointsOf('old')},
      ${subtractPlaces},
      nominations = nominations - 1,
      first_key = case when first_key = old.nominated_at || old.exhibitor_id
        then coalesce(${earliestRemaining}, first_key) else first_key end
    where ${sameTotalsRow('old')};`;

const changed = `old.event_id is not new.event_id or old.exhibitor_id is not new.exhibitor_id or old.category is not new.category or old.list_order is not new.list_order or old.fiscal_id is not new.fiscal_id or old.nominated_at is not new.nominated_at or old.annulled is not new.annulled`;
const watched = 'event_id, exhibitor_id, category, list_order, fiscal_id, nominated_at, annulled';

const sqliteTriggers = [
  `create trigger nominee_totals_after_insert after insert on nominations
      when new.annulled = 0
      begin
        ${insertTotals('min')}
      end`,
  `create trigger nominee_totals_after_delete after delete on nominations
      when old.annulled = 0
      begin
        ${sqliteSubtract}
      end`,
  `create trigger nominee_totals_after_update after update of ${watched} on nominations
      when (${changed}) and old.annulled = 0
      begin
        ${sqliteSubtract}
      end`,
  `create trigger nominee_totals_after_update_add after update of ${watched} on nominations
      when (${changed}) and new.annulled = 0
      begin
        ${insertTotals('min')}
      end`,
];

const postgresApply = `create or replace function nominee_totals_apply() returns trigger language plpgsql as $$
    declare
      remaining integer;
      current_first text;
    begin
      if tg_op in ('DELETE', 'UPDATE') and old.annulled = 0 then
        update nominee_totals set
          points = points - ${pointsOf('old')},
      ${subtractPlaces},
      nominations = nominations - 1
        where ${sameTotalsRow('old')}
        returning nominations, first_key into remaining, current_first;
        if remaining = 0 then
          delete from nominee_totals where ${sameTotalsRow('old')};
        elsif current_first = old.nominated_at || old.exhibitor_id then
          update nominee_totals
          set first_key = coalesce(${earliestRemaining}, first_key)
          where ${sameTotalsRow('old')};
        end if;
      end if;
      if tg_op in ('INSERT', 'UPDATE') and new.annulled = 0 then
        ${insertTotals('least')}
      end if;
      return null;
    end
    $$`;

const listColumns =
  '"event_id", "exhibitor_id", "category", "version", "updated_at", "annulled_at", "annulled_reason"';
const nominationColumns =
  '"event_id", "exhibitor_id", "category", "list_order", "fiscal_id", "name", "registered_name", "contact_name", "contact_position", "phone", "email", "location", "city", "nominated_at", "updated_at", "annulled"';

export const saveNominee = `create function premios_save_nominee(
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
  v_limit integer;
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
  -- The category's row (migration 0028): its limit, shared-locked until commit, so that a change
  -- of the limit or the scoring (which takes it for update) waits for this save or is seen by it.
  select c.nominee_limit into v_limit from event_categories c
   where c.event_id = p_event_id and c.address = p_category
     for share;
  if not found then
    return json_build_object('outcome', 'category_not_found');
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
    if v_count >= v_limit then
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
  name: '0028_event_categories',
  steps: [
    `create table "event_categories" ("event_id" text not null references "events" ("id") on delete cascade, "address" text not null, "name" text not null, "name_key" text not null, "description" text default '' not null, "nominee_limit" integer not null check (nominee_limit between 1 and 10), "scoring" text not null check (scoring in ('place', 'one')), "position" integer not null, "created_at" text not null, constraint "event_categories_pk" primary key ("event_id", "address"), constraint "event_categories_name_unique" unique ("event_id", "name_key"))`,
    `insert into "event_categories" ("event_id", "address", "name", "name_key", "description", "nominee_limit", "scoring", "position", "created_at")
      select "id", 'consumption', 'CONSUMO', 'consumo', '', 5, 'place', 1, "created_at" from "events"`,
    `insert into "event_categories" ("event_id", "address", "name", "name_key", "description", "nominee_limit", "scoring", "position", "created_at")
      select "id", 'value', 'VALOR AGREGADO', 'valor agregado', '', 5, 'place', 2, "created_at" from "events"`,
    ...PLACES.slice(5).map(
      (place) => `alter table "nominee_totals" add column "p${place}" integer default 0 not null`,
    ),
    `drop index "nominee_totals_ranking_idx"`,
    `create index "nominee_totals_ranking_idx" on "nominee_totals" ("event_id", "category", "points" desc, ${PLACES.map((place) => `"p${place}" desc`).join(', ')}, "nominations" desc, "first_key", "fiscal_id")`,
    {
      sqlite: [
        // The documented way to change a table's constraints: foreign keys off (a dropped parent
        // would otherwise cascade to its children), new table, copy, drop, rename, in one
        // transaction. The old triggers go with the old table; the copy fires none, so
        // nominee_totals stays as it is.
        'PRAGMA foreign_keys = OFF',
        'begin',
        `create table "nomination_lists_rebuilt" ("event_id" text not null, "exhibitor_id" text not null, "category" text not null, "version" integer default 0 not null, "updated_at" text not null, "annulled_at" text, "annulled_reason" text, constraint "nomination_lists_pk" primary key ("event_id", "exhibitor_id", "category"), constraint "nomination_lists_membership_fk" foreign key ("event_id", "exhibitor_id") references "event_exhibitors" ("event_id", "exhibitor_id") on delete cascade, constraint "nomination_lists_category_fk" foreign key ("event_id", "category") references "event_categories" ("event_id", "address"))`,
        `insert into "nomination_lists_rebuilt" (${listColumns}) select ${listColumns} from "nomination_lists"`,
        'drop table "nomination_lists"',
        'alter table "nomination_lists_rebuilt" rename to "nomination_lists"',
        `create table "nominations_rebuilt" ("event_id" text not null, "exhibitor_id" text not null, "category" text not null, "list_order" integer not null check (list_order between 1 and 10), "fiscal_id" text not null, "name" text not null, "registered_name" text not null, "contact_name" text not null, "contact_position" text not null, "phone" text not null, "email" text not null, "location" text not null, "city" text not null, "nominated_at" text not null, "updated_at" text not null, "annulled" integer default 0 not null, constraint "nominations_pk" primary key ("event_id", "exhibitor_id", "category", "list_order"), constraint "nominations_fiscal_unique" unique ("event_id", "exhibitor_id", "category", "fiscal_id"), constraint "nominations_list_fk" foreign key ("event_id", "exhibitor_id", "category") references "nomination_lists" ("event_id", "exhibitor_id", "category") on delete cascade)`,
        `insert into "nominations_rebuilt" (${nominationColumns}) select ${nominationColumns} from "nominations"`,
        'drop table "nominations"',
        'alter table "nominations_rebuilt" rename to "nominations"',
        `create index "nominations_results_idx" on "nominations" ("event_id", "category", "fiscal_id", "nominated_at", "exhibitor_id", "list_order")`,
        `create index "nominations_fiscal_id_idx" on "nominations" ("fiscal_id")`,
        ...sqliteTriggers,
        'commit',
        'PRAGMA foreign_keys = ON',
      ],
      postgres: [
        'alter table "nomination_lists" drop constraint "nomination_lists_category_check"',
        'alter table "nomination_lists" add constraint "nomination_lists_category_fk" foreign key ("event_id", "category") references "event_categories" ("event_id", "address")',
        'alter table "nominations" drop constraint "nominations_list_order_check"',
        'alter table "nominations" add constraint "nominations_list_order_check" check (list_order between 1 and 10)',
        postgresApply,
        'drop function premios_save_nominee(text, text, text, text, text, text, text, text, text, json, text, integer, integer, integer, text, text, text, text)',
        saveNominee,
      ],
    },
  ],
};
