import { adminsEndpoints } from './admins.ts';
import { annulmentEndpoints } from './annulment.ts';
import { authEndpoints } from './auth.ts';
import { brandingEndpoints } from './branding.ts';
import { categoriesEndpoints } from './categories.ts';
import type { Endpoint } from './define.ts';
import { eventsEndpoints } from './events.ts';
import { exhibitorsEndpoints } from './exhibitors.ts';
import { nominationsEndpoints } from './nominations.ts';
import { participationEndpoints } from './participation.ts';
import { registryEndpoints } from './registry.ts';
import { registrySearchEndpoints } from './registry-search.ts';
import { resultsEndpoints } from './results.ts';
import { sessionEndpoints } from './session.ts';

/**
 * Every endpoint of the API. The server registers exactly these (a test holds it to this list)
 * and the OpenAPI document describes them. The web imports each domain's file on its own, so a
 * screen's bundle carries only the contracts it calls.
 */
export const ALL_ENDPOINTS: readonly Endpoint[] = [
  ...sessionEndpoints,
  ...authEndpoints,
  ...adminsEndpoints,
  ...eventsEndpoints,
  ...categoriesEndpoints,
  ...exhibitorsEndpoints,
  ...registryEndpoints,
  ...participationEndpoints,
  ...nominationsEndpoints,
  ...resultsEndpoints,
  ...annulmentEndpoints,
  ...brandingEndpoints,
  ...registrySearchEndpoints,
];
