-- migrations applied: 0001_initial, 0002_results_ranking_index, 0003_nominee_totals, 0004_mail_outbox_recipient_idx, 0005_sign_in_hardening, 0006_turnout, 0007_results, 0008_admins, 0009_lifecycle, 0010_audit_log_one_event_index, 0011_auth_throttle_one_tree, 0012_drop_sign_in_code_attempts, 0013_mail_calendar, 0014_archived_member_snapshot, 0015_mfa_enrol_code, 0016_event_calendar

-- tables
admin_invitations BASE TABLE
admin_recovery_codes BASE TABLE
admins BASE TABLE
audit_log BASE TABLE
auth_throttle BASE TABLE
branding BASE TABLE
event_exhibitors BASE TABLE
events BASE TABLE
exhibitors BASE TABLE
mail_outbox BASE TABLE
mfa_challenges BASE TABLE
nomination_lists BASE TABLE
nominations BASE TABLE
nominee_totals BASE TABLE
password_reset_tokens BASE TABLE
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
exhibitors.id text not null -
exhibitors.email text not null -
exhibitors.full_name text not null -
exhibitors.company text not null -
exhibitors.created_at text not null -
exhibitors.updated_at text not null -
exhibitors.last_signed_in_at text null -
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
password_reset_tokens.id text not null -
password_reset_tokens.admin_id text not null -
password_reset_tokens.token_hash text not null -
password_reset_tokens.expires_at text not null -
password_reset_tokens.used_at text null -
password_reset_tokens.created_at text not null -
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
event_exhibitors event_exhibitors_event_id_fkey: FOREIGN KEY (event_id) REFERENCES events(id) ON DELETE CASCADE
event_exhibitors event_exhibitors_exhibitor_id_fkey: FOREIGN KEY (exhibitor_id) REFERENCES exhibitors(id) ON DELETE CASCADE
event_exhibitors event_exhibitors_invitation_message_id_fkey: FOREIGN KEY (invitation_message_id) REFERENCES mail_outbox(id) ON DELETE SET NULL
event_exhibitors event_exhibitors_invited_by_fkey: FOREIGN KEY (invited_by) REFERENCES admins(id) ON DELETE SET NULL
event_exhibitors event_exhibitors_pk: PRIMARY KEY (event_id, exhibitor_id)
events events_created_by_fkey: FOREIGN KEY (created_by) REFERENCES admins(id) ON DELETE SET NULL
events events_deadline_before_event: CHECK ((vote_deadline < event_date))
events events_pkey: PRIMARY KEY (id)
exhibitors exhibitors_email_key: UNIQUE (email)
exhibitors exhibitors_pkey: PRIMARY KEY (id)
mail_outbox mail_outbox_pkey: PRIMARY KEY (id)
mail_outbox mail_outbox_status_check: CHECK ((status = ANY (ARRAY['pending'::text, 'sent'::text, 'failed'::text, 'cancelled'::text])))
mfa_challenges mfa_challenges_admin_id_fkey: FOREIGN KEY (admin_id) REFERENCES admins(id) ON DELETE CASCADE
mfa_challenges mfa_challenges_pkey: PRIMARY KEY (id)
mfa_challenges mfa_challenges_token_hash_key: UNIQUE (token_hash)
nomination_lists nomination_lists_category_check: CHECK ((category = ANY (ARRAY['consumption'::text, 'value'::text])))
nomination_lists nomination_lists_membership_fk: FOREIGN KEY (event_id, exhibitor_id) REFERENCES event_exhibitors(event_id, exhibitor_id) ON DELETE CASCADE
nomination_lists nomination_lists_pk: PRIMARY KEY (event_id, exhibitor_id, category)
nominations nominations_fiscal_unique: UNIQUE (event_id, exhibitor_id, category, fiscal_id)
nominations nominations_list_fk: FOREIGN KEY (event_id, exhibitor_id, category) REFERENCES nomination_lists(event_id, exhibitor_id, category) ON DELETE CASCADE
nominations nominations_list_order_check: CHECK (((list_order >= 1) AND (list_order <= 5)))
nominations nominations_pk: PRIMARY KEY (event_id, exhibitor_id, category, list_order)
nominee_totals nominee_totals_event_id_fkey: FOREIGN KEY (event_id) REFERENCES events(id) ON DELETE CASCADE
nominee_totals nominee_totals_pk: PRIMARY KEY (event_id, category, fiscal_id)
password_reset_tokens password_reset_tokens_admin_id_fkey: FOREIGN KEY (admin_id) REFERENCES admins(id) ON DELETE CASCADE
password_reset_tokens password_reset_tokens_pkey: PRIMARY KEY (id)
password_reset_tokens password_reset_tokens_token_hash_key: UNIQUE (token_hash)
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
CREATE INDEX event_exhibitors_exhibitor_idx ON event_exhibitors USING btree (exhibitor_id)
CREATE UNIQUE INDEX event_exhibitors_pk ON event_exhibitors USING btree (event_id, exhibitor_id)
CREATE INDEX events_date_idx ON events USING btree (event_date)
CREATE UNIQUE INDEX events_pkey ON events USING btree (id)
CREATE UNIQUE INDEX exhibitors_email_key ON exhibitors USING btree (email)
CREATE UNIQUE INDEX exhibitors_pkey ON exhibitors USING btree (id)
CREATE INDEX mail_outbox_due_idx ON mail_outbox USING btree (status, next_attempt_at)
CREATE INDEX mail_outbox_event_idx ON mail_outbox USING btree (event_id, exhibitor_id, template)
CREATE UNIQUE INDEX mail_outbox_pkey ON mail_outbox USING btree (id)
CREATE INDEX mail_outbox_recipient_idx ON mail_outbox USING btree (to_address, template)
CREATE INDEX mfa_challenges_admin_idx ON mfa_challenges USING btree (admin_id)
CREATE UNIQUE INDEX mfa_challenges_pkey ON mfa_challenges USING btree (id)
CREATE UNIQUE INDEX mfa_challenges_token_hash_key ON mfa_challenges USING btree (token_hash)
CREATE UNIQUE INDEX nomination_lists_pk ON nomination_lists USING btree (event_id, exhibitor_id, category)
CREATE UNIQUE INDEX nominations_fiscal_unique ON nominations USING btree (event_id, exhibitor_id, category, fiscal_id)
CREATE UNIQUE INDEX nominations_pk ON nominations USING btree (event_id, exhibitor_id, category, list_order)
CREATE INDEX nominations_results_idx ON nominations USING btree (event_id, category, fiscal_id, nominated_at, exhibitor_id, list_order)
CREATE UNIQUE INDEX nominee_totals_pk ON nominee_totals USING btree (event_id, category, fiscal_id)
CREATE INDEX nominee_totals_ranking_idx ON nominee_totals USING btree (event_id, category, points DESC, p1 DESC, p2 DESC, p3 DESC, p4 DESC, p5 DESC, nominations DESC, first_key, fiscal_id)
CREATE UNIQUE INDEX password_reset_tokens_pkey ON password_reset_tokens USING btree (id)
CREATE UNIQUE INDEX password_reset_tokens_token_hash_key ON password_reset_tokens USING btree (token_hash)
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
CREATE TRIGGER nominee_totals_after_update AFTER UPDATE OF event_id, exhibitor_id, category, list_order, fiscal_id, nominated_at ON nominations FOR EACH ROW WHEN (((old.event_id IS DISTINCT FROM new.event_id) OR (old.exhibitor_id IS DISTINCT FROM new.exhibitor_id) OR (old.category IS DISTINCT FROM new.category) OR (old.list_order IS DISTINCT FROM new.list_order) OR (old.fiscal_id IS DISTINCT FROM new.fiscal_id) OR (old.nominated_at IS DISTINCT FROM new.nominated_at))) EXECUTE FUNCTION nominee_totals_apply()

-- sequences
audit_log_id_seq integer start 1 increment 1

-- functions
CREATE OR REPLACE FUNCTION nominee_totals_apply()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare
      remaining integer;
      current_first text;
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        update nominee_totals set
          points = points - (6 - old.list_order),
      p1 = p1 - case when old.list_order = 1 then 1 else 0 end,
      p2 = p2 - case when old.list_order = 2 then 1 else 0 end,
      p3 = p3 - case when old.list_order = 3 then 1 else 0 end,
      p4 = p4 - case when old.list_order = 4 then 1 else 0 end,
      p5 = p5 - case when old.list_order = 5 then 1 else 0 end,
      nominations = nominations - 1
        where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id
        returning nominations, first_key into remaining, current_first;
        if remaining = 0 then
          delete from nominee_totals where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id;
        elsif current_first = old.nominated_at || old.exhibitor_id then
          update nominee_totals
          set first_key = coalesce((select n.nominated_at || n.exhibitor_id
      from nominations n
      where n.event_id = old.event_id and n.category = old.category and n.fiscal_id = old.fiscal_id
      order by n.nominated_at, n.exhibitor_id
      limit 1), first_key)
          where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id;
        end if;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into nominee_totals (event_id, category, fiscal_id, points, p1, p2, p3, p4, p5, nominations, first_key)
    values (new.event_id, new.category, new.fiscal_id, 6 - new.list_order,
      case when new.list_order = 1 then 1 else 0 end, case when new.list_order = 2 then 1 else 0 end, case when new.list_order = 3 then 1 else 0 end, case when new.list_order = 4 then 1 else 0 end, case when new.list_order = 5 then 1 else 0 end,
      1, new.nominated_at || new.exhibitor_id)
    on conflict (event_id, category, fiscal_id) do update set
      points = nominee_totals.points + excluded.points,
      p1 = nominee_totals.p1 + excluded.p1,
      p2 = nominee_totals.p2 + excluded.p2,
      p3 = nominee_totals.p3 + excluded.p3,
      p4 = nominee_totals.p4 + excluded.p4,
      p5 = nominee_totals.p5 + excluded.p5,
      nominations = nominee_totals.nominations + 1,
      first_key = least(nominee_totals.first_key, excluded.first_key);
      end if;
      return null;
    end
    $function$

