import type { FrozenMigration } from './frozen.ts';

/** Fills nominee_totals from the nominations already stored (a test replays it). */
export const backfill: readonly string[] = [
  `delete from nominee_totals`,
  `insert into nominee_totals (event_id, category, fiscal_id, points, p1, p2, p3, p4, p5, nominations, first_key)
      select event_id, category, fiscal_id, sum(6 - list_order),
        sum(case when nominations.list_order = 1 then 1 else 0 end), sum(case when nominations.list_order = 2 then 1 else 0 end), sum(case when nominations.list_order = 3 then 1 else 0 end), sum(case when nominations.list_order = 4 then 1 else 0 end), sum(case when nominations.list_order = 5 then 1 else 0 end),
        count(*), min(nominated_at || exhibitor_id)
      from nominations
      group by event_id, category, fiscal_id`,
];

/**
 * The ranking reads one small row per fiscal id instead of aggregating every nomination
 * (docs/decisions/0002). Triggers keep the rows exact for every write path, foreign-key cascades
 * included; `backfill` then fills the table from the nominations already stored. Plain DDL: the
 * migrator serialises migrations, and on SQLite a second process fails on the first statement
 * (table exists) and retries.
 *
 * A vote is worth 6 − its place (the same rule as `pointsForPlace`); the SQLite triggers apply a
 * nomination row by row, while PostgreSQL's function first takes the totals row's lock and only
 * then, in a new statement that sees every committed change, looks for the earliest remaining
 * nomination.
 */
export const migration: FrozenMigration = {
  name: '0003_nominee_totals',
  steps: [
    `create table "nominee_totals" ("event_id" text not null references "events" ("id") on delete cascade, "category" text not null, "fiscal_id" text not null, "points" integer not null, "p1" integer not null, "p2" integer not null, "p3" integer not null, "p4" integer not null, "p5" integer not null, "nominations" integer not null, "first_key" text not null, constraint "nominee_totals_pk" primary key ("event_id", "category", "fiscal_id"))`,
    `create index "nominee_totals_ranking_idx" on "nominee_totals" ("event_id", "category", "points" desc, "p1" desc, "p2" desc, "p3" desc, "p4" desc, "p5" desc, "nominations" desc, "first_key", "fiscal_id")`,
    {
      sqlite: [
        `create trigger nominee_totals_after_insert after insert on nominations
      begin
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
      first_key = min(nominee_totals.first_key, excluded.first_key);
      end`,
        `create trigger nominee_totals_after_delete after delete on nominations
      begin
        
    delete from nominee_totals where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id and nominations <= 1;
    update nominee_totals set
      points = points - (6 - old.list_order),
      p1 = p1 - case when old.list_order = 1 then 1 else 0 end,
      p2 = p2 - case when old.list_order = 2 then 1 else 0 end,
      p3 = p3 - case when old.list_order = 3 then 1 else 0 end,
      p4 = p4 - case when old.list_order = 4 then 1 else 0 end,
      p5 = p5 - case when old.list_order = 5 then 1 else 0 end,
      nominations = nominations - 1,
      first_key = case when first_key = old.nominated_at || old.exhibitor_id
        then coalesce((select n.nominated_at || n.exhibitor_id
      from nominations n
      where n.event_id = old.event_id and n.category = old.category and n.fiscal_id = old.fiscal_id
      order by n.nominated_at, n.exhibitor_id
      limit 1), first_key) else first_key end
    where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id;
      end`,
        `create trigger nominee_totals_after_update after update of event_id, exhibitor_id, category, list_order, fiscal_id, nominated_at on nominations
      when old.event_id is not new.event_id or old.exhibitor_id is not new.exhibitor_id or old.category is not new.category or old.list_order is not new.list_order or old.fiscal_id is not new.fiscal_id or old.nominated_at is not new.nominated_at
      begin
        
    delete from nominee_totals where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id and nominations <= 1;
    update nominee_totals set
      points = points - (6 - old.list_order),
      p1 = p1 - case when old.list_order = 1 then 1 else 0 end,
      p2 = p2 - case when old.list_order = 2 then 1 else 0 end,
      p3 = p3 - case when old.list_order = 3 then 1 else 0 end,
      p4 = p4 - case when old.list_order = 4 then 1 else 0 end,
      p5 = p5 - case when old.list_order = 5 then 1 else 0 end,
      nominations = nominations - 1,
      first_key = case when first_key = old.nominated_at || old.exhibitor_id
        then coalesce((select n.nominated_at || n.exhibitor_id
      from nominations n
      where n.event_id = old.event_id and n.category = old.category and n.fiscal_id = old.fiscal_id
      order by n.nominated_at, n.exhibitor_id
      limit 1), first_key) else first_key end
    where nominee_totals.event_id = old.event_id and nominee_totals.category = old.category and nominee_totals.fiscal_id = old.fiscal_id;
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
      first_key = min(nominee_totals.first_key, excluded.first_key);
      end`,
      ],
      postgres: [
        `create function nominee_totals_apply() returns trigger language plpgsql as $$
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
    $$`,
        `create trigger nominee_totals_after_insert after insert on nominations
      for each row execute function nominee_totals_apply()`,
        `create trigger nominee_totals_after_delete after delete on nominations
      for each row execute function nominee_totals_apply()`,
        `create trigger nominee_totals_after_update after update of event_id, exhibitor_id, category, list_order, fiscal_id, nominated_at on nominations
      for each row when (old.event_id is distinct from new.event_id or old.exhibitor_id is distinct from new.exhibitor_id or old.category is distinct from new.category or old.list_order is distinct from new.list_order or old.fiscal_id is distinct from new.fiscal_id or old.nominated_at is distinct from new.nominated_at) execute function nominee_totals_apply()`,
      ],
    },
    ...backfill,
  ],
};
