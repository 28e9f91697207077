import { saveNominee as saveNomineeOf0031 } from './0031-category-shape-lock.ts';
import { replaceEachOnce, type FrozenMigration } from './frozen.ts';

/**
 * PostgreSQL only (docs/decisions/0039): `premios_save_nominee` reads the exhibitor's list through
 * the list's primary key and writes back the very rows it read. Without statistics on
 * `nominations` (a table that fills during the deadline rush, before autovacuum has analyzed it)
 * the planner rated `nominations_results_idx` (event, category, fiscal id, nominated at,
 * exhibitor, order) as good as the primary key for "this exhibitor's list in this category", and
 * chose it: each save walked every nomination of its category, so a save's cost grew with the
 * category. Now the list is read in the primary key's order (a sort only that key spares, which
 * settles the planner's choice), with each row's physical address, and an edit, a removal or a
 * move changes the rows at those addresses. They cannot have moved: every writer of a list takes
 * the list's row lock (taken above) before reading it. A removal or a move first locks the
 * ranking's totals of the rows it rewrites in fiscal-id order: the rows' triggers would otherwise
 * lock them in the order the rows are deleted, and two moves of the same two fiscal ids in
 * opposite orders could deadlock (the ranking's index had happened to delete them in fiscal-id
 * order). The function is 0031's text with those statements changed.
 */
const saveNominee = replaceEachOnce('0032', saveNomineeOf0031, [
  [
    '  v_rows nominations[];\n',
    '  v_rows nominations[];\n  v_addresses tid[];\n  v_last integer;\n  v_changed integer;\n',
  ],
  [
    `  select array_agg(n order by n.list_order) into v_rows from nominations n
   where n.event_id = p_event_id and n.exhibitor_id = v_exhibitor and n.category = p_category;`,
    `  select array_agg(r.n order by (r.n).list_order), array_agg(r.address order by (r.n).list_order)
    into v_rows, v_addresses
    from (select n, n.ctid as address from nominations n
           where n.event_id = p_event_id and n.exhibitor_id = v_exhibitor
             and n.category = p_category
           order by n.list_order) r;`,
  ],
  [
    `     where event_id = p_event_id and exhibitor_id = v_exhibitor and category = p_category
       and list_order = v_position;`,
    `     where ctid = v_addresses[v_position];
    get diagnostics v_changed = row_count;
    if v_changed <> 1 then
      raise exception 'premios_save_nominee: the list changed under its lock';
    end if;`,
  ],
  [
    `    delete from nominations
     where event_id = p_event_id and exhibitor_id = v_exhibitor and category = p_category
       and list_order >= v_first
       and list_order <= case when p_action = 'move' then v_first + 1 else v_count end;`,
    `    v_last := case when p_action = 'move' then v_first + 1 else v_count end;
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
    end if;`,
  ],
  [
    `    into v_after from nominations n
   where n.event_id = p_event_id and n.exhibitor_id = v_exhibitor and n.category = p_category;`,
    `    into v_after from (select * from nominations
   where event_id = p_event_id and exhibitor_id = v_exhibitor and category = p_category
   order by list_order) n;`,
  ],
]).replace(
  'create function premios_save_nominee(',
  'create or replace function premios_save_nominee(',
);

export const migration: FrozenMigration = {
  name: '0032_save_reads_its_list_by_key',
  steps: [{ sqlite: [], postgres: [saveNominee] }],
};
