-- migrations applied: 0001_initial, 0002_results_ranking_index, 0003_nominee_totals, 0004_mail_outbox_recipient_idx, 0005_sign_in_hardening, 0006_turnout, 0007_results, 0008_admins, 0009_lifecycle, 0010_audit_log_one_event_index, 0011_auth_throttle_one_tree, 0012_drop_sign_in_code_attempts, 0013_mail_calendar, 0014_archived_member_snapshot, 0015_mfa_enrol_code, 0016_event_calendar, 0017_nominee_fields_event_logo, 0019_one_round_trip_save, 0020_event_sign_ins, 0021_save_follows_event_calendar_and_fields, 0022_reseller_registry, 0023_registry_rules, 0024_annulled_lists, 0025_list_changes, 0026_one_round_trip_code_sign_in, 0027_save_follows_registry_and_annulment, 0028_event_categories, 0029_device_sign_ins, 0030_sealed_results, 0031_category_shape_lock, 0032_save_reads_its_list_by_key, 0033_one_round_trip_code_request

-- index admin_invitations_admin_idx on admin_invitations
CREATE INDEX "admin_invitations_admin_idx" on "admin_invitations" ("admin_id");

-- index admin_recovery_codes_admin_idx on admin_recovery_codes
CREATE INDEX "admin_recovery_codes_admin_idx" on "admin_recovery_codes" ("admin_id");

-- index audit_log_event_action_idx on audit_log
CREATE INDEX "audit_log_event_action_idx" on "audit_log" ("event_id", "action", "id");

-- index audit_log_event_history_idx on audit_log
CREATE INDEX "audit_log_event_history_idx" on "audit_log" ("event_id", "id");

-- index device_sign_ins_member_idx on device_sign_ins
CREATE INDEX "device_sign_ins_member_idx" on "device_sign_ins" ("event_id", "exhibitor_id");

-- index event_exhibitors_exhibitor_idx on event_exhibitors
CREATE INDEX "event_exhibitors_exhibitor_idx" on "event_exhibitors" ("exhibitor_id");

-- index events_date_idx on events
CREATE INDEX "events_date_idx" on "events" ("event_date");

-- index list_changes_admin_idx on list_changes
CREATE INDEX "list_changes_admin_idx" on "list_changes" ("admin_id");

-- index list_changes_batch_idx on list_changes
CREATE INDEX "list_changes_batch_idx" on "list_changes" ("batch_id");

-- index list_changes_exhibitor_idx on list_changes
CREATE INDEX "list_changes_exhibitor_idx" on "list_changes" ("event_id", "exhibitor_id", "id");

-- index mail_outbox_due_idx on mail_outbox
CREATE INDEX "mail_outbox_due_idx" on "mail_outbox" ("status", "next_attempt_at");

-- index mail_outbox_event_idx on mail_outbox
CREATE INDEX "mail_outbox_event_idx" on "mail_outbox" ("event_id", "exhibitor_id", "template");

-- index mail_outbox_recipient_idx on mail_outbox
CREATE INDEX "mail_outbox_recipient_idx" on "mail_outbox" ("to_address", "template");

-- index mfa_challenges_admin_idx on mfa_challenges
CREATE INDEX "mfa_challenges_admin_idx" on "mfa_challenges" ("admin_id");

-- index nominations_fiscal_id_idx on nominations
CREATE INDEX "nominations_fiscal_id_idx" on "nominations" ("fiscal_id");

-- index nominations_results_idx on nominations
CREATE INDEX "nominations_results_idx" on "nominations" ("event_id", "category", "fiscal_id", "nominated_at", "exhibitor_id", "list_order");

-- index nominee_totals_ranking_idx on nominee_totals
CREATE INDEX "nominee_totals_ranking_idx" on "nominee_totals" ("event_id", "category", "points" desc, "p1" desc, "p2" desc, "p3" desc, "p4" desc, "p5" desc, "p6" desc, "p7" desc, "p8" desc, "p9" desc, "p10" desc, "nominations" desc, "first_key", "fiscal_id");

-- index resellers_name_idx on resellers
CREATE INDEX "resellers_name_idx" on "resellers" ("name", "fiscal_id");

-- index sessions_admin_idx on sessions
CREATE INDEX "sessions_admin_idx" on "sessions" ("admin_id");

-- index sessions_exhibitor_idx on sessions
CREATE INDEX "sessions_exhibitor_idx" on "sessions" ("exhibitor_id");

-- index sign_in_codes_exhibitor_idx on sign_in_codes
CREATE INDEX "sign_in_codes_exhibitor_idx" on "sign_in_codes" ("exhibitor_id", "created_at");

-- index sign_in_codes_link_idx on sign_in_codes
CREATE UNIQUE INDEX "sign_in_codes_link_idx" on "sign_in_codes" ("link_hash");

-- index sqlite_autoindex_admin_invitations_1 on admin_invitations
(implicit);

-- index sqlite_autoindex_admin_invitations_2 on admin_invitations
(implicit);

-- index sqlite_autoindex_admin_recovery_codes_1 on admin_recovery_codes
(implicit);

-- index sqlite_autoindex_admins_1 on admins
(implicit);

-- index sqlite_autoindex_admins_2 on admins
(implicit);

-- index sqlite_autoindex_device_sign_ins_1 on device_sign_ins
(implicit);

-- index sqlite_autoindex_event_categories_1 on event_categories
(implicit);

-- index sqlite_autoindex_event_categories_2 on event_categories
(implicit);

-- index sqlite_autoindex_event_exhibitors_1 on event_exhibitors
(implicit);

-- index sqlite_autoindex_event_logos_1 on event_logos
(implicit);

-- index sqlite_autoindex_events_1 on events
(implicit);

-- index sqlite_autoindex_exhibitors_1 on exhibitors
(implicit);

-- index sqlite_autoindex_exhibitors_2 on exhibitors
(implicit);

-- index sqlite_autoindex_mail_outbox_1 on mail_outbox
(implicit);

-- index sqlite_autoindex_mfa_challenges_1 on mfa_challenges
(implicit);

-- index sqlite_autoindex_mfa_challenges_2 on mfa_challenges
(implicit);

-- index sqlite_autoindex_nomination_lists_1 on nomination_lists
(implicit);

-- index sqlite_autoindex_nominations_1 on nominations
(implicit);

-- index sqlite_autoindex_nominations_2 on nominations
(implicit);

-- index sqlite_autoindex_nominee_totals_1 on nominee_totals
(implicit);

-- index sqlite_autoindex_password_reset_tokens_1 on password_reset_tokens
(implicit);

-- index sqlite_autoindex_password_reset_tokens_2 on password_reset_tokens
(implicit);

-- index sqlite_autoindex_resellers_1 on resellers
(implicit);

-- index sqlite_autoindex_sessions_1 on sessions
(implicit);

-- index sqlite_autoindex_sessions_2 on sessions
(implicit);

-- index sqlite_autoindex_sign_in_codes_1 on sign_in_codes
(implicit);

-- table admin_invitations on admin_invitations
CREATE TABLE "admin_invitations" ("id" text primary key, "admin_id" text not null references "admins" ("id") on delete cascade, "token_hash" text not null unique, "invited_by" text references "admins" ("id") on delete set null, "expires_at" text not null, "used_at" text, "created_at" text not null);

-- table admin_recovery_codes on admin_recovery_codes
CREATE TABLE "admin_recovery_codes" ("id" text primary key, "admin_id" text not null references "admins" ("id") on delete cascade, "code_hash" text not null, "used_at" text, "created_at" text not null);

-- table admins on admins
CREATE TABLE "admins" ("id" text primary key, "email" text not null unique, "full_name" text, "password_hash" text, "created_at" text not null, "updated_at" text not null, "last_signed_in_at" text, "revoked_at" text, "mfa_secret" text, "mfa_pending_secret" text, "mfa_enabled_at" text, "mfa_last_step" integer, "mfa_enrol_code_hash" text, "mfa_enrol_code_expires_at" text);

-- table audit_log on audit_log
CREATE TABLE "audit_log" ("id" integer primary key autoincrement, "at" text not null, "actor_role" text not null, "actor_id" text, "actor_email" text, "action" text not null, "entity_type" text not null, "entity_id" text, "event_id" text, "details" text not null);

-- table auth_throttle on auth_throttle
CREATE TABLE "auth_throttle" ("scope" text not null, "key" text not null, "window_start" text not null, "hits" integer not null, "not_before" text not null, primary key ("scope", "key")) without rowid;

-- table branding on branding
CREATE TABLE "branding" ("id" integer primary key check (id = 1), "logo_png" blob not null, "etag" text not null, "updated_by" text references "admins" ("id") on delete set null, "updated_at" text not null);

-- table device_sign_ins on device_sign_ins
CREATE TABLE "device_sign_ins" ("event_id" text not null, "session_id" text not null, "exhibitor_id" text not null, "device_id" text, "ip" text not null, "user_agent" text not null, "signed_in_at" text not null, constraint "device_sign_ins_pk" primary key ("event_id", "session_id"), constraint "device_sign_ins_member_fk" foreign key ("event_id", "exhibitor_id") references "event_exhibitors" ("event_id", "exhibitor_id") on delete cascade);

-- table event_categories on event_categories
CREATE TABLE "event_categories" ("event_id" text not null references "events" ("id") on delete cascade, "address" text not null, "name" text not null, "name_key" text not null, "description" text default '' not null, "nominee_limit" integer not null check (nominee_limit between 1 and 10), "scoring" text not null check (scoring in ('place', 'one')), "position" integer not null, "created_at" text not null, constraint "event_categories_pk" primary key ("event_id", "address"), constraint "event_categories_name_unique" unique ("event_id", "name_key"));

-- table event_exhibitors on event_exhibitors
CREATE TABLE "event_exhibitors" ("event_id" text not null references "events" ("id") on delete cascade, "exhibitor_id" text not null references "exhibitors" ("id") on delete cascade, "invited_by" text references "admins" ("id") on delete set null, "invitation_message_id" text references "mail_outbox" ("id") on delete set null, "created_at" text not null, "last_reminded_at" text, "invited_at" text, "archived_full_name" text, "archived_email" text, "archived_company" text, "last_signed_in_at" text, constraint "event_exhibitors_pk" primary key ("event_id", "exhibitor_id"));

-- table event_logos on event_logos
CREATE TABLE "event_logos" ("event_id" text primary key references "events" ("id") on delete cascade, "logo_png" blob not null, "updated_by" text references "admins" ("id") on delete set null, "updated_at" text not null);

-- table events on events
CREATE TABLE "events" ("id" text primary key, "name" text not null, "name_search" text not null, "event_date" text not null, "vote_deadline" text not null, "created_by" text references "admins" ("id") on delete set null, "created_at" text not null, "updated_at" text not null, "reminders" text default '["deadlineDay"]' not null, "archived_at" text, "anonymised_at" text, "voting_closed_at" text, "close_time" text not null default '23:59', "time_zone" text, "voting_opens_at" text, "nominee_fields" text default '{}' not null, "logo_etag" text, "nominable_resellers" text default 'any' not null, "validate_cuit" integer default 0 not null, "seal_results" integer default 0 not null, "results_viewed_at" text, "results_viewed_by" text references "admins" ("id") on delete set null, "results_viewed_by_name" text, "results_viewed_reason" text, constraint "events_deadline_before_event" check (vote_deadline < event_date));

-- table exhibitors on exhibitors
CREATE TABLE "exhibitors" ("id" text primary key, "email" text not null unique, "full_name" text not null, "company" text not null, "created_at" text not null, "updated_at" text not null, "last_signed_in_at" text);

-- table list_changes on list_changes
CREATE TABLE "list_changes" ("id" integer primary key autoincrement, "event_id" text not null, "exhibitor_id" text not null, "category" text not null, "batch_id" text not null, "before" text not null, "after" text not null, "admin_id" text references "admins" ("id") on delete set null, "reason" text not null, "changed_at" text not null, constraint "list_changes_list_fk" foreign key ("event_id", "exhibitor_id", "category") references "nomination_lists" ("event_id", "exhibitor_id", "category") on delete cascade);

-- table mail_outbox on mail_outbox
CREATE TABLE "mail_outbox" ("id" text primary key, "template" text not null, "params" text not null, "to_address" text not null, "status" text not null check (status in ('pending', 'sent', 'failed', 'cancelled')), "attempts" integer default 0 not null, "next_attempt_at" text not null, "locked_until" text, "last_error" text, "subject" text, "sent_at" text, "event_id" text, "exhibitor_id" text, "created_at" text not null, "cancel_reason" text);

-- table mfa_challenges on mfa_challenges
CREATE TABLE "mfa_challenges" ("id" text primary key, "admin_id" text not null references "admins" ("id") on delete cascade, "token_hash" text not null unique, "expires_at" text not null, "created_at" text not null);

-- table nomination_lists on nomination_lists
CREATE TABLE "nomination_lists" ("event_id" text not null, "exhibitor_id" text not null, "category" text not null, "version" integer default 0 not null, "updated_at" text not null, "annulled_at" text, "annulled_reason" text, constraint "nomination_lists_pk" primary key ("event_id", "exhibitor_id", "category"), constraint "nomination_lists_membership_fk" foreign key ("event_id", "exhibitor_id") references "event_exhibitors" ("event_id", "exhibitor_id") on delete cascade, constraint "nomination_lists_category_fk" foreign key ("event_id", "category") references "event_categories" ("event_id", "address"));

-- table nominations on nominations
CREATE TABLE "nominations" ("event_id" text not null, "exhibitor_id" text not null, "category" text not null, "list_order" integer not null check (list_order between 1 and 10), "fiscal_id" text not null, "name" text not null, "registered_name" text not null, "contact_name" text not null, "contact_position" text not null, "phone" text not null, "email" text not null, "location" text not null, "city" text not null, "nominated_at" text not null, "updated_at" text not null, "annulled" integer default 0 not null, constraint "nominations_pk" primary key ("event_id", "exhibitor_id", "category", "list_order"), constraint "nominations_fiscal_unique" unique ("event_id", "exhibitor_id", "category", "fiscal_id"), constraint "nominations_list_fk" foreign key ("event_id", "exhibitor_id", "category") references "nomination_lists" ("event_id", "exhibitor_id", "category") on delete cascade);

-- table nominee_totals on nominee_totals
CREATE TABLE "nominee_totals" ("event_id" text not null references "events" ("id") on delete cascade, "category" text not null, "fiscal_id" text not null, "points" integer not null, "p1" integer not null, "p2" integer not null, "p3" integer not null, "p4" integer not null, "p5" integer not null, "nominations" integer not null, "first_key" text not null, "p6" integer default 0 not null, "p7" integer default 0 not null, "p8" integer default 0 not null, "p9" integer default 0 not null, "p10" integer default 0 not null, constraint "nominee_totals_pk" primary key ("event_id", "category", "fiscal_id"));

-- table password_reset_tokens on password_reset_tokens
CREATE TABLE "password_reset_tokens" ("id" text primary key, "admin_id" text not null references "admins" ("id") on delete cascade, "token_hash" text not null unique, "expires_at" text not null, "used_at" text, "created_at" text not null);

-- table registry_settings on registry_settings
CREATE TABLE "registry_settings" ("id" integer primary key, "validate_cuit" integer default 0 not null, "updated_at" text not null, "updated_by" text references "admins" ("id") on delete set null, constraint "registry_settings_one_row" check ("id" = 1));

-- table resellers on resellers
CREATE TABLE "resellers" ("fiscal_id" text primary key, "name" text not null, "registered_name" text not null, "location" text default '' not null, "city" text default '' not null, "contact_name" text default '' not null, "contact_position" text default '' not null, "phone" text default '' not null, "email" text default '' not null, "search_text" text not null, "created_at" text not null, "updated_at" text not null, "updated_by" text references "admins" ("id") on delete set null);

-- table sessions on sessions
CREATE TABLE "sessions" ("id" text primary key, "token_hash" text not null unique, "role" text not null check (role in ('admin', 'exh')), "admin_id" text references "admins" ("id") on delete cascade, "exhibitor_id" text references "exhibitors" ("id") on delete cascade, "created_at" text not null, "last_seen_at" text not null, "expires_at" text not null, constraint "sessions_one_subject" check ((role = 'admin' and admin_id is not null and exhibitor_id is null) or (role = 'exh' and exhibitor_id is not null and admin_id is null)));

-- table sign_in_codes on sign_in_codes
CREATE TABLE "sign_in_codes" ("id" text primary key, "exhibitor_id" text not null references "exhibitors" ("id") on delete cascade, "code_hash" text not null, "expires_at" text not null, "used_at" text, "voided_at" text, "created_at" text not null, "link_hash" text);

-- table sqlite_sequence on sqlite_sequence
CREATE TABLE sqlite_sequence(name,seq);

-- trigger nominee_totals_after_delete on nominations
CREATE TRIGGER nominee_totals_after_delete after delete on nominations
      when old.annulled = 0
      begin
        delete from nominee_totals where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id and nominations <= 1;
    update nominee_totals set
      points = points - coalesce((select case when c.scoring = 'one' then 1 else c.nominee_limit + 1 - old.list_order end from event_categories c where c.event_id = old.event_id and c.address = old.category), 0),
      p1 = p1 - case when old.list_order = 1 then 1 else 0 end,
      p2 = p2 - case when old.list_order = 2 then 1 else 0 end,
      p3 = p3 - case when old.list_order = 3 then 1 else 0 end,
      p4 = p4 - case when old.list_order = 4 then 1 else 0 end,
      p5 = p5 - case when old.list_order = 5 then 1 else 0 end,
      p6 = p6 - case when old.list_order = 6 then 1 else 0 end,
      p7 = p7 - case when old.list_order = 7 then 1 else 0 end,
      p8 = p8 - case when old.list_order = 8 then 1 else 0 end,
      p9 = p9 - case when old.list_order = 9 then 1 else 0 end,
      p10 = p10 - case when old.list_order = 10 then 1 else 0 end,
      nominations = nominations - 1,
      first_key = case when first_key = old.nominated_at || old.exhibitor_id
        then coalesce((select n.nominated_at || n.exhibitor_id
      from nominations n
      where n.event_id = old.event_id and n.category = old.category and n.fiscal_id = old.fiscal_id and n.annulled = 0
      order by n.nominated_at, n.exhibitor_id
      limit 1), first_key) else first_key end
    where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id;
      end;

-- trigger nominee_totals_after_insert on nominations
CREATE TRIGGER nominee_totals_after_insert after insert on nominations
      when new.annulled = 0
      begin
        insert into nominee_totals (event_id, category, fiscal_id, points, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, nominations, first_key)
    values (new.event_id, new.category, new.fiscal_id, coalesce((select case when c.scoring = 'one' then 1 else c.nominee_limit + 1 - new.list_order end from event_categories c where c.event_id = new.event_id and c.address = new.category), 0),
      case when new.list_order = 1 then 1 else 0 end, case when new.list_order = 2 then 1 else 0 end, case when new.list_order = 3 then 1 else 0 end, case when new.list_order = 4 then 1 else 0 end, case when new.list_order = 5 then 1 else 0 end, case when new.list_order = 6 then 1 else 0 end, case when new.list_order = 7 then 1 else 0 end, case when new.list_order = 8 then 1 else 0 end, case when new.list_order = 9 then 1 else 0 end, case when new.list_order = 10 then 1 else 0 end,
      1, new.nominated_at || new.exhibitor_id)
    on conflict (event_id, category, fiscal_id) do update set
      points = nominee_totals.points + excluded.points,
      p1 = nominee_totals.p1 + excluded.p1,
      p2 = nominee_totals.p2 + excluded.p2,
      p3 = nominee_totals.p3 + excluded.p3,
      p4 = nominee_totals.p4 + excluded.p4,
      p5 = nominee_totals.p5 + excluded.p5,
      p6 = nominee_totals.p6 + excluded.p6,
      p7 = nominee_totals.p7 + excluded.p7,
      p8 = nominee_totals.p8 + excluded.p8,
      p9 = nominee_totals.p9 + excluded.p9,
      p10 = nominee_totals.p10 + excluded.p10,
      nominations = nominee_totals.nominations + 1,
      first_key = min(nominee_totals.first_key, excluded.first_key);
      end;

-- trigger nominee_totals_after_update on nominations
CREATE TRIGGER nominee_totals_after_update after update of event_id, exhibitor_id, category, list_order, fiscal_id, nominated_at, annulled on nominations
      when (old.event_id is not new.event_id or old.exhibitor_id is not new.exhibitor_id or old.category is not new.category or old.list_order is not new.list_order or old.fiscal_id is not new.fiscal_id or old.nominated_at is not new.nominated_at or old.annulled is not new.annulled) and old.annulled = 0
      begin
        delete from nominee_totals where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id and nominations <= 1;
    update nominee_totals set
      points = points - coalesce((select case when c.scoring = 'one' then 1 else c.nominee_limit + 1 - old.list_order end from event_categories c where c.event_id = old.event_id and c.address = old.category), 0),
      p1 = p1 - case when old.list_order = 1 then 1 else 0 end,
      p2 = p2 - case when old.list_order = 2 then 1 else 0 end,
      p3 = p3 - case when old.list_order = 3 then 1 else 0 end,
      p4 = p4 - case when old.list_order = 4 then 1 else 0 end,
      p5 = p5 - case when old.list_order = 5 then 1 else 0 end,
      p6 = p6 - case when old.list_order = 6 then 1 else 0 end,
      p7 = p7 - case when old.list_order = 7 then 1 else 0 end,
      p8 = p8 - case when old.list_order = 8 then 1 else 0 end,
      p9 = p9 - case when old.list_order = 9 then 1 else 0 end,
      p10 = p10 - case when old.list_order = 10 then 1 else 0 end,
      nominations = nominations - 1,
      first_key = case when first_key = old.nominated_at || old.exhibitor_id
        then coalesce((select n.nominated_at || n.exhibitor_id
      from nominations n
      where n.event_id = old.event_id and n.category = old.category and n.fiscal_id = old.fiscal_id and n.annulled = 0
      order by n.nominated_at, n.exhibitor_id
      limit 1), first_key) else first_key end
    where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id;
      end;

-- trigger nominee_totals_after_update_add on nominations
CREATE TRIGGER nominee_totals_after_update_add after update of event_id, exhibitor_id, category, list_order, fiscal_id, nominated_at, annulled on nominations
      when (old.event_id is not new.event_id or old.exhibitor_id is not new.exhibitor_id or old.category is not new.category or old.list_order is not new.list_order or old.fiscal_id is not new.fiscal_id or old.nominated_at is not new.nominated_at or old.annulled is not new.annulled) and new.annulled = 0
      begin
        insert into nominee_totals (event_id, category, fiscal_id, points, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, nominations, first_key)
    values (new.event_id, new.category, new.fiscal_id, coalesce((select case when c.scoring = 'one' then 1 else c.nominee_limit + 1 - new.list_order end from event_categories c where c.event_id = new.event_id and c.address = new.category), 0),
      case when new.list_order = 1 then 1 else 0 end, case when new.list_order = 2 then 1 else 0 end, case when new.list_order = 3 then 1 else 0 end, case when new.list_order = 4 then 1 else 0 end, case when new.list_order = 5 then 1 else 0 end, case when new.list_order = 6 then 1 else 0 end, case when new.list_order = 7 then 1 else 0 end, case when new.list_order = 8 then 1 else 0 end, case when new.list_order = 9 then 1 else 0 end, case when new.list_order = 10 then 1 else 0 end,
      1, new.nominated_at || new.exhibitor_id)
    on conflict (event_id, category, fiscal_id) do update set
      points = nominee_totals.points + excluded.points,
      p1 = nominee_totals.p1 + excluded.p1,
      p2 = nominee_totals.p2 + excluded.p2,
      p3 = nominee_totals.p3 + excluded.p3,
      p4 = nominee_totals.p4 + excluded.p4,
      p5 = nominee_totals.p5 + excluded.p5,
      p6 = nominee_totals.p6 + excluded.p6,
      p7 = nominee_totals.p7 + excluded.p7,
      p8 = nominee_totals.p8 + excluded.p8,
      p9 = nominee_totals.p9 + excluded.p9,
      p10 = nominee_totals.p10 + excluded.p10,
      nominations = nominee_totals.nominations + 1,
      first_key = min(nominee_totals.first_key, excluded.first_key);
      end;
