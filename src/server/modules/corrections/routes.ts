import * as api from '../../../shared/api/results.ts';
import { implement, type Route } from '../../http/route.ts';
import { editVote, exhibitorVotes } from './service.ts';

/** An administrator's correction of an exhibitor's list, and the lists it starts from. */
export const correctionsRoutes: Route[] = [
  implement(api.exhibitorVotes, async ({ deps, params }) => exhibitorVotes(deps.db, params)),
  implement(api.editVote, async ({ deps, params, body, user }) =>
    editVote(deps, { admin: user, vote: params, edit: body }),
  ),
];
