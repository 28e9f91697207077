-- migrations applied: 0001_initial, 0002_results_ranking_index, 0003_nominee_totals, 0004_mail_outbox_recipient_idx, 0005_sign_in_hardening, 0006_turnout, 0007_results, 0008_admins, 0009_lifecycle, 0010_audit_log_one_event_index, 0011_auth_throttle_one_tree, 0012_drop_sign_in_code_attempts, 0013_mail_calendar, 0014_archived_member_snapshot, 0015_mfa_enrol_code, 0016_event_calendar, 0017_nominee_fields_event_logo, 0019_one_round_trip_save, 0020_event_sign_ins, 0021_save_follows_event_calendar_and_fields, 0022_reseller_registry, 0023_registry_rules, 0024_annulled_lists, 0025_list_changes, 0026_one_round_trip_code_sign_in, 0027_save_follows_registry_and_annulment, 0028_event_categories, 0029_device_sign_ins, 0030_sealed_results, 0031_category_shape_lock, 0032_save_reads_its_list_by_key, 0033_one_round_trip_code_request

-- tables
admin_invitations BASE TABLE
admin_recovery_codes BASE TABLE
admins BASE TABLE
audit_log BASE TABLE
auth_throttle BASE TABLE
branding BASE TABLE
device_sign_ins BASE TABLE
event_categories BASE TABLE
event_exhibitors BASE TABLE
event_logos BASE TABLE
events BASE TABLE
exhibitors BASE TABLE
list_changes BASE TABLE
mail_outbox BASE TABLE
mfa_challenges BASE TABLE
nomination_lists BASE TABLE
nominations BASE TABLE
nominee_totals BASE TABLE
password_reset_tokens BASE TABLE
registry_settings BASE TABLE
resellers BASE TABLE
sessions BASE TABLE
sign_in_codes BASE TABLE

-- columns: table.column type null default
admin_invitations.id text not null -
admin_invitations.admin_id text not null -
admin_invitations.token_hash text not null -
admin_invitations.invited_by text null -
admin_invitations.expires_at text not null -
admin_invitations.used_at text null -
admin_invitations.created_at text not null -
admin_recovery_codes.id text not null -
admin_recovery_codes.admin_id text not null -
admin_recovery_codes.code_hash text not null -
admin_recovery_codes.used_at text null -
admin_recovery_codes.created_at text not null -
admins.id text not null -
admins.email text not null -
admins.full_name text null -
admins.password_hash text null -
admins.created_at text not null -
admins.updated_at text not null -
admins.last_signed_in_at text null -
admins.revoked_at text null -
admins.mfa_secret text null -
admins.mfa_pending_secret text null -
admins.mfa_enabled_at text null -
admins.mfa_last_step integer null -
admins.mfa_enrol_code_hash text null -
admins.mfa_enrol_code_expires_at text null -
audit_log.id integer not null nextval('audit_log_id_seq'::regclass)
audit_log.at text not null -
audit_log.actor_role text not null -
audit_log.actor_id text null -
audit_log.actor_email text null -
audit_log.action text not null -
audit_log.entity_type text not null -
audit_log.entity_id text null -
audit_log.event_id text null -
audit_log.details text not null -
auth_throttle.scope text not null -
auth_throttle.key text not null -
auth_throttle.window_start text not null -
auth_throttle.hits integer not null -
auth_throttle.not_before text not null -
branding.id integer not null -
branding.logo_png bytea not null -
branding.etag text not null -
branding.updated_by text null -
branding.updated_at text not null -
device_sign_ins.event_id text not null -
device_sign_ins.session_id text not null -
device_sign_ins.exhibitor_id text not null -
device_sign_ins.device_id text null -
device_sign_ins.ip text not null -
device_sign_ins.user_agent text not null -
device_sign_ins.signed_in_at text not null -
event_categories.event_id text not null -
event_categories.address text not null -
event_categories.name text not null -
event_categories.name_key text not null -
event_categories.description text not null ''::text
event_categories.nominee_limit integer not null -
event_categories.scoring text not null -
event_categories.position integer not null -
event_categories.created_at text not null -
event_exhibitors.event_id text not null -
event_exhibitors.exhibitor_id text not null -
event_exhibitors.invited_by text null -
event_exhibitors.invitation_message_id text null -
event_exhibitors.created_at text not null -
event_exhibitors.last_reminded_at text null -
event_exhibitors.invited_at text null -
event_exhibitors.archived_full_name text null -
event_exhibitors.archived_email text null -
event_exhibitors.archived_company text null -
event_exhibitors.last_signed_in_at text null -
event_logos.event_id text not null -
event_logos.logo_png bytea not null -
event_logos.updated_by text null -
event_logos.updated_at text not null -
events.id text not null -
events.name text not null -
events.name_search text not null -
events.event_date text not null -
events.vote_deadline text not null -
events.created_by text null -
events.created_at text not null -
events.updated_at text not null -
events.reminders text not null '["deadlineDay"]'::text
events.archived_at text null -
events.anonymised_at text null -
events.voting_closed_at text null -
events.close_time text not null '23:59'::text
events.time_zone text null -
events.voting_opens_at text null -
events.nominee_fields text not null '{}'::text
events.logo_etag text null -
events.nominable_resellers text not null 'any'::text
events.validate_cuit integer not null 0
events.seal_results integer not null 0
events.results_viewed_at text null -
events.results_viewed_by text null -
events.results_viewed_by_name text null -
events.results_viewed_reason text null -
exhibitors.id text not null -
exhibitors.email text not null -
exhibitors.full_name text not null -
exhibitors.company text not null -
exhibitors.created_at text not null -
exhibitors.updated_at text not null -
exhibitors.last_signed_in_at text null -
list_changes.id integer not null nextval('list_changes_id_seq'::regclass)
list_changes.event_id text not null -
list_changes.exhibitor_id text not null -
list_changes.category text not null -
list_changes.batch_id text not null -
list_changes.before text not null -
list_changes.after text not null -
list_changes.admin_id text null -
list_changes.reason text not null -
list_changes.changed_at text not null -
mail_outbox.id text not null -
mail_outbox.template text not null -
mail_outbox.params text not null -
mail_outbox.to_address text not null -
mail_outbox.status text not null -
mail_outbox.attempts integer not null 0
mail_outbox.next_attempt_at text not null -
mail_outbox.locked_until text null -
mail_outbox.last_error text null -
mail_outbox.subject text null -
mail_outbox.sent_at text null -
mail_outbox.event_id text null -
mail_outbox.exhibitor_id text null -
mail_outbox.created_at text not null -
mail_outbox.cancel_reason text null -
mfa_challenges.id text not null -
mfa_challenges.admin_id text not null -
mfa_challenges.token_hash text not null -
mfa_challenges.expires_at text not null -
mfa_challenges.created_at text not null -
nomination_lists.event_id text not null -
nomination_lists.exhibitor_id text not null -
nomination_lists.category text not null -
nomination_lists.version integer not null 0
nomination_lists.updated_at text not null -
nomination_lists.annulled_at text null -
nomination_lists.annulled_reason text null -
nominations.event_id text not null -
nominations.exhibitor_id text not null -
nominations.category text not null -
nominations.list_order integer not null -
nominations.fiscal_id text not null -
nominations.name text not null -
nominations.registered_name text not null -
nominations.contact_name text not null -
nominations.contact_position text not null -
nominations.phone text not null -
nominations.email text not null -
nominations.location text not null -
nominations.city text not null -
nominations.nominated_at text not null -
nominations.updated_at text not null -
nominations.annulled integer not null 0
nominee_totals.event_id text not null -
nominee_totals.category text not null -
nominee_totals.fiscal_id text not null -
nominee_totals.points integer not null -
nominee_totals.p1 integer not null -
nominee_totals.p2 integer not null -
nominee_totals.p3 integer not null -
nominee_totals.p4 integer not null -
nominee_totals.p5 integer not null -
nominee_totals.nominations integer not null -
nominee_totals.first_key text not null -
nominee_totals.p6 integer not null 0
nominee_totals.p7 integer not null 0
nominee_totals.p8 integer not null 0
nominee_totals.p9 integer not null 0
nominee_totals.p10 integer not null 0
password_reset_tokens.id text not null -
password_reset_tokens.admin_id text not null -
password_reset_tokens.token_hash text not null -
password_reset_tokens.expires_at text not null -
password_reset_tokens.used_at text null -
password_reset_tokens.created_at text not null -
registry_settings.id integer not null -
registry_settings.validate_cuit integer not null 0
registry_settings.updated_at text not null -
registry_settings.updated_by text null -
resellers.fiscal_id text not null -
resellers.name text not null -
resellers.registered_name text not null -
resellers.location text not null ''::text
resellers.city text not null ''::text
resellers.contact_name text not null ''::text
resellers.contact_position text not null ''::text
resellers.phone text not null ''::text
resellers.email text not null ''::text
resellers.search_text text not null -
resellers.created_at text not null -
resellers.updated_at text not null -
resellers.updated_by text null -
sessions.id text not null -
sessions.token_hash text not null -
sessions.role text not null -
sessions.admin_id text null -
sessions.exhibitor_id text null -
sessions.created_at text not null -
sessions.last_seen_at text not null -
sessions.expires_at text not null -
sign_in_codes.id text not null -
sign_in_codes.exhibitor_id text not null -
sign_in_codes.code_hash text not null -
sign_in_codes.expires_at text not null -
sign_in_codes.used_at text null -
sign_in_codes.voided_at text null -
sign_in_codes.created_at text not null -
sign_in_codes.link_hash text null -

-- constraints
admin_invitations admin_invitations_admin_id_fkey: FOREIGN KEY (admin_id) REFERENCES admins(id) ON DELETE CASCADE
admin_invitations admin_invitations_invited_by_fkey: FOREIGN KEY (invited_by) REFERENCES admins(id) ON DELETE SET NULL
admin_invitations admin_invitations_pkey: PRIMARY KEY (id)
admin_invitations admin_invitations_token_hash_key: UNIQUE (token_hash)
admin_recovery_codes admin_recovery_codes_admin_id_fkey: FOREIGN KEY (admin_id) REFERENCES admins(id) ON DELETE CASCADE
admin_recovery_codes admin_recovery_codes_pkey: PRIMARY KEY (id)
admins admins_email_key: UNIQUE (email)
admins admins_pkey: PRIMARY KEY (id)
audit_log audit_log_pkey: PRIMARY KEY (id)
auth_throttle auth_throttle_pkey: PRIMARY KEY (scope, key)
branding branding_id_check: CHECK ((id = 1))
branding branding_pkey: PRIMARY KEY (id)
branding branding_updated_by_fkey: FOREIGN KEY (updated_by) REFERENCES admins(id) ON DELETE SET NULL
device_sign_ins device_sign_ins_member_fk: FOREIGN KEY (event_id, exhibitor_id) REFERENCES event_exhibitors(event_id, exhibitor_id) ON DELETE CASCADE
device_sign_ins device_sign_ins_pk: PRIMARY KEY (event_id, session_id)
event_categories event_categories_event_id_fkey: FOREIGN KEY (event_id) REFERENCES events(id) ON DELETE CASCADE
event_categories event_categories_name_unique: UNIQUE (event_id, name_key)
event_categories event_categories_nominee_limit_check: CHECK (((nominee_limit >= 1) AND (nominee_limit <= 10)))
event_categories event_categories_pk: PRIMARY KEY (event_id, address)
event_categories event_categories_scoring_check: CHECK ((scoring = ANY (ARRAY['place'::text, 'one'::text])))
event_exhibitors event_exhibitors_event_id_fkey: FOREIGN KEY (event_id) REFERENCES events(id) ON DELETE CASCADE
event_exhibitors event_exhibitors_exhibitor_id_fkey: FOREIGN KEY (exhibitor_id) REFERENCES exhibitors(id) ON DELETE CASCADE
event_exhibitors event_exhibitors_invitation_message_id_fkey: FOREIGN KEY (invitation_message_id) REFERENCES mail_outbox(id) ON DELETE SET NULL
event_exhibitors event_exhibitors_invited_by_fkey: FOREIGN KEY (invited_by) REFERENCES admins(id) ON DELETE SET NULL
event_exhibitors event_exhibitors_pk: PRIMARY KEY (event_id, exhibitor_id)
event_logos event_logos_event_id_fkey: FOREIGN KEY (event_id) REFERENCES events(id) ON DELETE CASCADE
event_logos event_logos_pkey: PRIMARY KEY (event_id)
event_logos event_logos_updated_by_fkey: FOREIGN KEY (updated_by) REFERENCES admins(id) ON DELETE SET NULL
events events_created_by_fkey: FOREIGN KEY (created_by) REFERENCES admins(id) ON DELETE SET NULL
events events_deadline_before_event: CHECK ((vote_deadline < event_date))
events events_pkey: PRIMARY KEY (id)
events events_results_viewed_by_fkey: FOREIGN KEY (results_viewed_by) REFERENCES admins(id) ON DELETE SET NULL
exhibitors exhibitors_email_key: UNIQUE (email)
exhibitors exhibitors_pkey: PRIMARY KEY (id)
list_changes list_changes_admin_id_fkey: FOREIGN KEY (admin_id) REFERENCES admins(id) ON DELETE SET NULL
list_changes list_changes_list_fk: FOREIGN KEY (event_id, exhibitor_id, category) REFERENCES nomination_lists(event_id, exhibitor_id, category) ON DELETE CASCADE
list_changes list_changes_pkey: PRIMARY KEY (id)
mail_outbox mail_outbox_pkey: PRIMARY KEY (id)
mail_outbox mail_outbox_status_check: CHECK ((status = ANY (ARRAY['pending'::text, 'sent'::text, 'failed'::text, 'cancelled'::text])))
mfa_challenges mfa_challenges_admin_id_fkey: FOREIGN KEY (admin_id) REFERENCES admins(id) ON DELETE CASCADE
mfa_challenges mfa_challenges_pkey: PRIMARY KEY (id)
mfa_challenges mfa_challenges_token_hash_key: UNIQUE (token_hash)
nomination_lists nomination_lists_category_fk: FOREIGN KEY (event_id, category) REFERENCES event_categories(event_id, address)
nomination_lists nomination_lists_membership_fk: FOREIGN KEY (event_id, exhibitor_id) REFERENCES event_exhibitors(event_id, exhibitor_id) ON DELETE CASCADE
nomination_lists nomination_lists_pk: PRIMARY KEY (event_id, exhibitor_id, category)
nominations nominations_fiscal_unique: UNIQUE (event_id, exhibitor_id, category, fiscal_id)
nominations nominations_list_fk: FOREIGN KEY (event_id, exhibitor_id, category) REFERENCES nomination_lists(event_id, exhibitor_id, category) ON DELETE CASCADE
nominations nominations_list_order_check: CHECK (((list_order >= 1) AND (list_order <= 10)))
nominations nominations_pk: PRIMARY KEY (event_id, exhibitor_id, category, list_order)
nominee_totals nominee_totals_event_id_fkey: FOREIGN KEY (event_id) REFERENCES events(id) ON DELETE CASCADE
nominee_totals nominee_totals_pk: PRIMARY KEY (event_id, category, fiscal_id)
password_reset_tokens password_reset_tokens_admin_id_fkey: FOREIGN KEY (admin_id) REFERENCES admins(id) ON DELETE CASCADE
password_reset_tokens password_reset_tokens_pkey: PRIMARY KEY (id)
password_reset_tokens password_reset_tokens_token_hash_key: UNIQUE (token_hash)
registry_settings registry_settings_one_row: CHECK ((id = 1))
registry_settings registry_settings_pkey: PRIMARY KEY (id)
registry_settings registry_settings_updated_by_fkey: FOREIGN KEY (updated_by) REFERENCES admins(id) ON DELETE SET NULL
resellers resellers_pkey: PRIMARY KEY (fiscal_id)
resellers resellers_updated_by_fkey: FOREIGN KEY (updated_by) REFERENCES admins(id) ON DELETE SET NULL
sessions sessions_admin_id_fkey: FOREIGN KEY (admin_id) REFERENCES admins(id) ON DELETE CASCADE
sessions sessions_exhibitor_id_fkey: FOREIGN KEY (exhibitor_id) REFERENCES exhibitors(id) ON DELETE CASCADE
sessions sessions_one_subject: CHECK ((((role = 'admin'::text) AND (admin_id IS NOT NULL) AND (exhibitor_id IS NULL)) OR ((role = 'exh'::text) AND (exhibitor_id IS NOT NULL) AND (admin_id IS NULL))))
sessions sessions_pkey: PRIMARY KEY (id)
sessions sessions_role_check: CHECK ((role = ANY (ARRAY['admin'::text, 'exh'::text])))
sessions sessions_token_hash_key: UNIQUE (token_hash)
sign_in_codes sign_in_codes_exhibitor_id_fkey: FOREIGN KEY (exhibitor_id) REFERENCES exhibitors(id) ON DELETE CASCADE
sign_in_codes sign_in_codes_pkey: PRIMARY KEY (id)

-- indexes
CREATE INDEX admin_invitations_admin_idx ON admin_invitations USING btree (admin_id)
CREATE UNIQUE INDEX admin_invitations_pkey ON admin_invitations USING btree (id)
CREATE UNIQUE INDEX admin_invitations_token_hash_key ON admin_invitations USING btree (token_hash)
CREATE INDEX admin_recovery_codes_admin_idx ON admin_recovery_codes USING btree (admin_id)
CREATE UNIQUE INDEX admin_recovery_codes_pkey ON admin_recovery_codes USING btree (id)
CREATE UNIQUE INDEX admins_email_key ON admins USING btree (email)
CREATE UNIQUE INDEX admins_pkey ON admins USING btree (id)
CREATE INDEX audit_log_event_action_idx ON audit_log USING btree (event_id, action, id)
CREATE INDEX audit_log_event_history_idx ON audit_log USING btree (event_id, id)
CREATE UNIQUE INDEX audit_log_pkey ON audit_log USING btree (id)
CREATE UNIQUE INDEX auth_throttle_pkey ON auth_throttle USING btree (scope, key)
CREATE UNIQUE INDEX branding_pkey ON branding USING btree (id)
CREATE INDEX device_sign_ins_member_idx ON device_sign_ins USING btree (event_id, exhibitor_id)
CREATE UNIQUE INDEX device_sign_ins_pk ON device_sign_ins USING btree (event_id, session_id)
CREATE UNIQUE INDEX event_categories_name_unique ON event_categories USING btree (event_id, name_key)
CREATE UNIQUE INDEX event_categories_pk ON event_categories USING btree (event_id, address)
CREATE INDEX event_exhibitors_exhibitor_idx ON event_exhibitors USING btree (exhibitor_id)
CREATE UNIQUE INDEX event_exhibitors_pk ON event_exhibitors USING btree (event_id, exhibitor_id)
CREATE UNIQUE INDEX event_logos_pkey ON event_logos USING btree (event_id)
CREATE INDEX events_date_idx ON events USING btree (event_date)
CREATE UNIQUE INDEX events_pkey ON events USING btree (id)
CREATE UNIQUE INDEX exhibitors_email_key ON exhibitors USING btree (email)
CREATE UNIQUE INDEX exhibitors_pkey ON exhibitors USING btree (id)
CREATE INDEX list_changes_admin_idx ON list_changes USING btree (admin_id)
CREATE INDEX list_changes_batch_idx ON list_changes USING btree (batch_id)
CREATE INDEX list_changes_exhibitor_idx ON list_changes USING btree (event_id, exhibitor_id, id)
CREATE UNIQUE INDEX list_changes_pkey ON list_changes USING btree (id)
CREATE INDEX mail_outbox_due_idx ON mail_outbox USING btree (status, next_attempt_at)
CREATE INDEX mail_outbox_event_idx ON mail_outbox USING btree (event_id, exhibitor_id, template)
CREATE UNIQUE INDEX mail_outbox_pkey ON mail_outbox USING btree (id)
CREATE INDEX mail_outbox_recipient_idx ON mail_outbox USING btree (to_address, template)
CREATE INDEX mfa_challenges_admin_idx ON mfa_challenges USING btree (admin_id)
CREATE UNIQUE INDEX mfa_challenges_pkey ON mfa_challenges USING btree (id)
CREATE UNIQUE INDEX mfa_challenges_token_hash_key ON mfa_challenges USING btree (token_hash)
CREATE UNIQUE INDEX nomination_lists_pk ON nomination_lists USING btree (event_id, exhibitor_id, category)
CREATE INDEX nominations_fiscal_id_idx ON nominations USING btree (fiscal_id)
CREATE UNIQUE INDEX nominations_fiscal_unique ON nominations USING btree (event_id, exhibitor_id, category, fiscal_id)
CREATE UNIQUE INDEX nominations_pk ON nominations USING btree (event_id, exhibitor_id, category, list_order)
CREATE INDEX nominations_results_idx ON nominations USING btree (event_id, category, fiscal_id, nominated_at, exhibitor_id, list_order)
CREATE UNIQUE INDEX nominee_totals_pk ON nominee_totals USING btree (event_id, category, fiscal_id)
CREATE INDEX nominee_totals_ranking_idx ON nominee_totals USING btree (event_id, category, points DESC, p1 DESC, p2 DESC, p3 DESC, p4 DESC, p5 DESC, p6 DESC, p7 DESC, p8 DESC, p9 DESC, p10 DESC, nominations DESC, first_key, fiscal_id)
CREATE UNIQUE INDEX password_reset_tokens_pkey ON password_reset_tokens USING btree (id)
CREATE UNIQUE INDEX password_reset_tokens_token_hash_key ON password_reset_tokens USING btree (token_hash)
CREATE UNIQUE INDEX registry_settings_pkey ON registry_settings USING btree (id)
CREATE INDEX resellers_name_idx ON resellers USING btree (name, fiscal_id)
CREATE UNIQUE INDEX resellers_pkey ON resellers USING btree (fiscal_id)
CREATE INDEX sessions_admin_idx ON sessions USING btree (admin_id)
CREATE INDEX sessions_exhibitor_idx ON sessions USING btree (exhibitor_id)
CREATE UNIQUE INDEX sessions_pkey ON sessions USING btree (id)
CREATE UNIQUE INDEX sessions_token_hash_key ON sessions USING btree (token_hash)
CREATE INDEX sign_in_codes_exhibitor_idx ON sign_in_codes USING btree (exhibitor_id, created_at)
CREATE UNIQUE INDEX sign_in_codes_link_idx ON sign_in_codes USING btree (link_hash)
CREATE UNIQUE INDEX sign_in_codes_pkey ON sign_in_codes USING btree (id)

-- triggers
CREATE TRIGGER nominee_totals_after_delete AFTER DELETE ON nominations FOR EACH ROW EXECUTE FUNCTION nominee_totals_apply()
CREATE TRIGGER nominee_totals_after_insert AFTER INSERT ON nominations FOR EACH ROW EXECUTE FUNCTION nominee_totals_apply()
CREATE TRIGGER nominee_totals_after_update AFTER UPDATE OF event_id, exhibitor_id, category, list_order, fiscal_id, nominated_at, annulled ON nominations FOR EACH ROW WHEN (((old.event_id IS DISTINCT FROM new.event_id) OR (old.exhibitor_id IS DISTINCT FROM new.exhibitor_id) OR (old.category IS DISTINCT FROM new.category) OR (old.list_order IS DISTINCT FROM new.list_order) OR (old.fiscal_id IS DISTINCT FROM new.fiscal_id) OR (old.nominated_at IS DISTINCT FROM new.nominated_at) OR (old.annulled IS DISTINCT FROM new.annulled))) EXECUTE FUNCTION nominee_totals_apply()

-- sequences
audit_log_id_seq integer start 1 increment 1
list_changes_id_seq integer start 1 increment 1

-- functions
CREATE OR REPLACE FUNCTION nominee_totals_apply()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare
      remaining integer;
      current_first text;
    begin
      if tg_op in ('DELETE', 'UPDATE') and old.annulled = 0 then
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
      nominations = nominations - 1
        where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id
        returning nominations, first_key into remaining, current_first;
        if remaining = 0 then
          delete from nominee_totals where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id;
        elsif current_first = old.nominated_at || old.exhibitor_id then
          update nominee_totals
          set first_key = coalesce((select n.nominated_at || n.exhibitor_id
      from nominations n
      where n.event_id = old.event_id and n.category = old.category and n.fiscal_id = old.fiscal_id and n.annulled = 0
      order by n.nominated_at, n.exhibitor_id
      limit 1), first_key)
          where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id;
        end if;
      end if;
      if tg_op in ('INSERT', 'UPDATE') and new.annulled = 0 then
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
      first_key = least(nominee_totals.first_key, excluded.first_key);
      end if;
      return null;
    end
    $function$

CREATE OR REPLACE FUNCTION premios_hit_spaced_throttle(p_scope text, p_key text, p_at text, p_window_expired text, p_max integer, p_not_before text[])
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
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
$function$

CREATE OR REPLACE FUNCTION premios_hit_throttle(p_scope text, p_key text, p_at text, p_window_expired text, p_max integer)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
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
$function$

CREATE OR REPLACE FUNCTION premios_request_sign_in_code(p_email text, p_client text, p_now text, p_send_client_scope text, p_send_client_expired text, p_send_client_max integer, p_send_client_not_before text[], p_send_address_scope text, p_send_address_expired text, p_send_address_max integer, p_code_id text, p_code_hash text, p_link_hash text, p_code_expires_at text, p_mail_id text, p_mail_template text, p_mail_params text)
 RETURNS json
 LANGUAGE plpgsql
AS $function$
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
$function$

CREATE OR REPLACE FUNCTION premios_save_nominee(p_token_hash text, p_now text, p_idle_cutoff text, p_touch_cutoff text, p_event_id text, p_category text, p_app_time_zone text, p_action text, p_fiscal_id text, p_nominee json, p_direction text, p_expected integer, p_archive_lock_class integer, p_category_lock_class integer, p_audit_action text, p_receipt_template text, p_receipt_at text, p_receipt_id text)
 RETURNS json
 LANGUAGE plpgsql
AS $function$
declare
  v_session record;
  v_exhibitor text;
  v_target record;
  v_version integer;
  v_count integer;
  v_position integer;
  v_first integer;
  v_rows nominations[];
  v_addresses tid[];
  v_last integer;
  v_changed integer;
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
  -- The category's shape lock (migration 0031), shared until commit, so that a change of the
  -- limit or the scoring (which takes it exclusively) waits for this save or is seen by it.
  perform pg_advisory_xact_lock_shared(p_category_lock_class,
    hashtext(p_event_id || '/' || p_category));
  select c.nominee_limit into v_limit from event_categories c
   where c.event_id = p_event_id and c.address = p_category;
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

  select array_agg(r.n order by (r.n).list_order), array_agg(r.address order by (r.n).list_order)
    into v_rows, v_addresses
    from (select n, n.ctid as address from nominations n
           where n.event_id = p_event_id and n.exhibitor_id = v_exhibitor
             and n.category = p_category
           order by n.list_order) r;
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
     where ctid = v_addresses[v_position];
    get diagnostics v_changed = row_count;
    if v_changed <> 1 then
      raise exception 'premios_save_nominee: the list changed under its lock';
    end if;
  else
    -- list_order is part of the primary key: renumbered rows are deleted and inserted again,
    -- keeping their nominated_at (the ranking's tie-break), as the ordinary path does.
    if p_action = 'remove' then
      v_first := v_position;
    end if;
    v_last := case when p_action = 'move' then v_first + 1 else v_count end;
    -- The ranking's totals of the rows rewritten, locked in key order before the rows' triggers
    -- change them, so that two saves rewriting the same fiscal ids in opposite orders wait for
    -- each other instead of deadlocking.
    perform 1 from nominee_totals t
     where t.event_id = p_event_id and t.category = p_category
       and t.fiscal_id in (select r.fiscal_id from unnest(v_rows[v_first:v_last]) r)
     order by t.fiscal_id
       for update;
    delete from nominations where ctid = any (v_addresses[v_first:v_last]);
    get diagnostics v_changed = row_count;
    if v_changed <> v_last - v_first + 1 then
      raise exception 'premios_save_nominee: the list changed under its lock';
    end if;
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
    into v_after from (select * from nominations
   where event_id = p_event_id and exhibitor_id = v_exhibitor and category = p_category
   order by list_order) n;

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
$function$

CREATE OR REPLACE FUNCTION premios_sign_in_with_code(p_email text, p_code text, p_client text, p_now text, p_try_client_scope text, p_try_client_expired text, p_try_client_max integer, p_try_address_scope text, p_try_address_expired text, p_try_address_max integer, p_try_grace_scope text, p_try_grace_expired text, p_try_grace_max integer, p_code_mail_template text, p_session_id text, p_session_token_hash text, p_session_expires_at text)
 RETURNS json
 LANGUAGE plpgsql
AS $function$
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
$function$

