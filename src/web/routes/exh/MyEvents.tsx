import { Button, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { useExhEvents } from '../../features/nominations/queries.ts';
import { QueryState } from '../../components/QueryState.tsx';

/** The exhibitor's events, each a large link to its nomination screen. */
export default function MyEvents() {
  const query = useExhEvents();
  return (
    <Stack spacing={2}>
      <Typography variant="h1">Mis eventos</Typography>
      <QueryState query={query}>
        {({ events }) =>
          events.length === 0 ? (
            <Typography color="text.secondary">{MSG.noEvents}</Typography>
          ) : (
            <Stack spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {events.map((event) => (
                <li key={event.id}>
                  <Button
                    component={RouterLink}
                    to={`/exh/event/${event.id}`}
                    variant="outlined"
                    size="large"
                    fullWidth
                    sx={{
                      py: 3,
                      px: 3,
                      justifyContent: 'flex-start',
                      textAlign: 'left',
                      fontSize: '1.15rem',
                      fontWeight: 600,
                      overflowWrap: 'anywhere',
                      bgcolor: 'background.paper',
                    }}
                  >
                    {event.name}
                  </Button>
                </li>
              ))}
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}
