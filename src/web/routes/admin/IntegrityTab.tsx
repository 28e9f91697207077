import { Box, Link, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { formatDisplayInstant } from '../../../shared/dates.ts';
import { zoneLabel } from '../../../shared/deadline-zone.ts';
import type {
  CategoryAlerts,
  DeviceGroup,
  IntegrityExhibitor,
  IntegrityResponse,
  ListGroup,
} from '../../../shared/schemas/integrity.ts';
import { QueryState } from '../../components/QueryState.tsx';
import { useEvent } from '../../features/events/queries.ts';
import { useIntegrityAlerts } from '../../features/results/queries.ts';

const NO_ALERTS = 'Sin alertas';

/**
 * The exhibitor's name, leading to their votes (where a list can be annulled), on the alert's
 * category when it has one.
 */
function ExhibitorLink({
  eventId,
  exhibitor,
  category,
}: {
  eventId: string;
  exhibitor: IntegrityExhibitor;
  category?: CategoryAddress | undefined;
}) {
  return (
    <Link
      component={RouterLink}
      to={`/admin/event/${eventId}/exhibitors/${exhibitor.id}${category === undefined ? '' : `?categoria=${category}`}`}
      sx={{ overflowWrap: 'anywhere' }}
    >
      {exhibitor.fullName}
    </Link>
  );
}

/** One alert: what was found, then the exhibitors it names, each a link to their votes. */
function AlertCard({
  title,
  detail,
  exhibitors,
  eventId,
  category,
}: {
  title: string;
  detail?: ReactNode;
  exhibitors: IntegrityExhibitor[];
  eventId: string;
  category?: CategoryAddress;
}) {
  return (
    <Paper variant="outlined" component="li" sx={{ p: 1.5, listStyle: 'none' }}>
      <Typography sx={{ fontWeight: 600 }}>{title}</Typography>
      {detail ? (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {detail}
        </Typography>
      ) : null}
      <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
        {exhibitors.map((exhibitor) => (
          <li key={exhibitor.id}>
            <ExhibitorLink eventId={eventId} exhibitor={exhibitor} category={category} />
            {exhibitor.company ? ` (${exhibitor.company})` : ''}
          </li>
        ))}
      </Box>
    </Paper>
  );
}

function AlertList({ children }: { children: ReactNode }) {
  return (
    <Stack component="ul" spacing={1} sx={{ m: 0, p: 0 }}>
      {children}
    </Stack>
  );
}

function SectionHeading({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h3" component="h3" sx={{ fontSize: 20, fontWeight: 600 }}>
      {children}
    </Typography>
  );
}

function CategoryHeading({ name }: { name: string }) {
  return (
    <Typography variant="h4" component="h4" sx={{ fontSize: 16, fontWeight: 600 }}>
      {`Nominación Reseller ${name}`}
    </Typography>
  );
}

const listText = (group: ListGroup) =>
  group.entries.map((entry) => `${entry.name} (${entry.fiscalId})`).join(', ');

/** The votes page opens on the event's first category: only another one goes in its link. */
const linkedCategory = (alerts: CategoryAlerts[], category: CategoryAddress) =>
  category === alerts[0]?.category ? undefined : category;

function IdenticalLists({ alerts, eventId }: { alerts: CategoryAlerts[]; eventId: string }) {
  const flagged = alerts.filter(
    (ofCategory) => ofCategory.identicalLists.length + ofCategory.reorderedLists.length > 0,
  );
  return (
    <Stack component="section" spacing={1.5}>
      <SectionHeading>Listas idénticas</SectionHeading>
      {flagged.length === 0 ? <Typography>{NO_ALERTS}</Typography> : null}
      {flagged.map((ofCategory) => (
        <Stack key={ofCategory.category} spacing={1}>
          <CategoryHeading name={ofCategory.name} />
          <AlertList>
            {ofCategory.identicalLists.map((group) => (
              <AlertCard
                key={`same-${group.exhibitors.map((e) => e.id).join()}`}
                title={`${group.exhibitors.length} expositores con la misma lista, en el mismo orden`}
                detail={listText(group)}
                exhibitors={group.exhibitors}
                eventId={eventId}
                category={linkedCategory(alerts, ofCategory.category)}
              />
            ))}
            {ofCategory.reorderedLists.map((group) => (
              <AlertCard
                key={`set-${group.exhibitors.map((e) => e.id).join()}`}
                title={`${group.exhibitors.length} expositores con los mismos ${group.entries.length} ID fiscales en otro orden`}
                detail={listText(group)}
                exhibitors={group.exhibitors}
                eventId={eventId}
                category={linkedCategory(alerts, ofCategory.category)}
              />
            ))}
          </AlertList>
        </Stack>
      ))}
    </Stack>
  );
}

const MATCH_TEXT: Record<DeviceGroup['matchedBy'], string> = {
  deviceCookie: 'el mismo navegador (reconocido por su cookie de dispositivo)',
  addressAndBrowser: 'la misma dirección y el mismo navegador (sin cookie de dispositivo)',
};

function SameDevice({
  groups,
  eventId,
  timeZone,
}: {
  groups: DeviceGroup[];
  eventId: string;
  timeZone: string | undefined;
}) {
  const when = (group: DeviceGroup) => {
    if (!timeZone) return '';
    const from = formatDisplayInstant(group.from, timeZone);
    const to = formatDisplayInstant(group.to, timeZone);
    return from === to ? `El ${from}.` : `Entre el ${from} y el ${to}.`;
  };
  return (
    <Stack component="section" spacing={1.5}>
      <SectionHeading>Mismo dispositivo</SectionHeading>
      {groups.length === 0 ? (
        <Typography>{NO_ALERTS}</Typography>
      ) : (
        <AlertList>
          {groups.map((group) => (
            <AlertCard
              key={`${group.from}-${group.exhibitors.map((e) => e.id).join()}`}
              title={`${group.exhibitors.length} expositores ingresaron desde ${MATCH_TEXT[group.matchedBy]}`}
              detail={when(group)}
              exhibitors={group.exhibitors}
              eventId={eventId}
            />
          ))}
        </AlertList>
      )}
    </Stack>
  );
}

function SelfNominations({ alerts, eventId }: { alerts: CategoryAlerts[]; eventId: string }) {
  const flagged = alerts.filter((ofCategory) => ofCategory.selfNominations.length > 0);
  return (
    <Stack component="section" spacing={1.5}>
      <SectionHeading>Nominaciones a la propia empresa</SectionHeading>
      {flagged.length === 0 ? <Typography>{NO_ALERTS}</Typography> : null}
      {flagged.map((ofCategory) => (
        <Stack key={ofCategory.category} spacing={1}>
          <CategoryHeading name={ofCategory.name} />
          <AlertList>
            {ofCategory.selfNominations.map((alert) => (
              <Paper
                key={`${alert.exhibitor.id}-${alert.nominee.fiscalId}`}
                variant="outlined"
                component="li"
                sx={{ p: 1.5, listStyle: 'none', overflowWrap: 'anywhere' }}
              >
                <Typography>
                  <ExhibitorLink
                    eventId={eventId}
                    exhibitor={alert.exhibitor}
                    category={linkedCategory(alerts, ofCategory.category)}
                  />
                  {` (${alert.exhibitor.email}) nominó a ${alert.nominee.name} (${alert.nominee.fiscalId})`}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {`Contacto: ${alert.nominee.email}. Mismo dominio: ${alert.domain}`}
                </Typography>
              </Paper>
            ))}
          </AlertList>
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * The event's tab "Integridad": signs of coordinated voting for an administrator to review
 * (nothing is blocked or changed by them), each naming the exhibitors with a link to their votes.
 */
export default function IntegrityTab() {
  const { eventId = '' } = useParams();
  const query = useIntegrityAlerts(eventId);
  const timeZone = useEvent(eventId).data?.timeZone;
  return (
    <Stack spacing={3} sx={{ mt: 2 }}>
      <Stack spacing={1}>
        <Typography variant="h2" component="h2">
          Integridad
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Señales para revisar: ninguna bloquea ni cambia votos. Las listas anuladas no cuentan.
          {timeZone ? ` Fechas y horas en ${zoneLabel(timeZone)}.` : ''}
        </Typography>
      </Stack>
      <QueryState query={query}>
        {(data: IntegrityResponse) => (
          <>
            <IdenticalLists alerts={data.categories} eventId={eventId} />
            <SameDevice groups={data.sameDevice} eventId={eventId} timeZone={timeZone} />
            <SelfNominations alerts={data.categories} eventId={eventId} />
          </>
        )}
      </QueryState>
    </Stack>
  );
}
