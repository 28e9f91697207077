import CloseIcon from '@mui/icons-material/Close';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import { Box, Button, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { EventCategoryView } from '../../../shared/schemas/categories.ts';
import { MSG } from '../../../shared/messages.ts';
import type { RankingRow } from '../../../shared/schemas/results.ts';
import { Loading } from '../../components/RequireRole.tsx';
import { useEvent, useEventCategory } from '../../features/events/queries.ts';
import { presentPath } from '../../features/results/PresentAction.tsx';
import { useRanking } from '../../features/results/queries.ts';
import { ApiError } from '../../lib/api.ts';

/** Colours for a projector: light text on a dark ground, well over the contrast minimums. */
const GROUND = '#0b1f33';
const INK = '#ffffff';
const ACCENT = '#ffd54f';
const MUTED = '#b0bec5';
/** The look of the screen's main buttons: dark text on the accent, grey once disabled. */
const PRIMARY = {
  bgcolor: ACCENT,
  color: GROUND,
  '&:hover': { bgcolor: '#ffca28' },
  '&.Mui-disabled': { bgcolor: '#37474f', color: '#cfd8dc' },
} as const;
/** Type on a wide screen grows with the window's height, so the whole podium fits a projector. */
const SIZE = {
  event: 'clamp(1.5rem, 4vh, 3rem)',
  heading: 'clamp(2rem, 6vh, 5rem)',
  place: 'clamp(2rem, 7vh, 6rem)',
  name: 'clamp(1.75rem, 6vh, 5rem)',
  points: 'clamp(1.25rem, 3.5vh, 3rem)',
} as const;

/** Keys a presentation clicker sends (and a keyboard's) to go on, and to go back. */
const FORWARD_KEYS = new Set(['PageDown', ' ', 'Enter', 'ArrowRight']);
const BACK_KEYS = new Set(['PageUp', 'ArrowLeft']);

/** The category presented after this one, in the event's order; none after the last. */
function nextCategory(
  categories: readonly EventCategoryView[],
  category: EventCategoryView,
): EventCategoryView | undefined {
  return categories[categories.findIndex(({ address }) => address === category.address) + 1];
}

/** Whether the browser lets this page go full screen, and whether it is now. */
function useFullscreen() {
  const [active, setActive] = useState(() => Boolean(document.fullscreenElement));
  useEffect(() => {
    const onChange = () => setActive(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = useCallback(() => {
    const change = document.fullscreenElement
      ? document.exitFullscreen()
      : document.documentElement.requestFullscreen();
    // Refused (no permission, an embedded page): the screen still fills the window.
    change.catch(() => undefined);
  }, []);
  return { available: document.fullscreenEnabled, active, toggle };
}

/**
 * The ceremony screen of a category, outside the app's layout: logo, event, category and the
 * first five, revealed one at a time from the fifth to the first. A presentation clicker drives
 * it: PageDown, Space, Enter (or the right arrow, a click anywhere, "Siguiente") reveal the next
 * place; PageUp (or the left arrow, "Anterior") hides it again; after 1° the next category's
 * presentation is offered, and the same forward keys open it. Escape goes back to the category's
 * tab.
 */
export default function PresentRanking() {
  const { eventId = '', category: address } = useParams();
  const { pending, category, categories } = useEventCategory(eventId, address);
  // Full screen belongs to the presentation only, however it is left (Escape, "Salir", the
  // browser's back), and it stays on from one category to the next.
  useEffect(
    () => () => {
      if (document.fullscreenElement) document.exitFullscreen().catch(() => undefined);
    },
    [],
  );
  if (pending) return null;
  if (!category) return <Typography sx={{ m: 2 }}>{MSG.pageNotFound}</Typography>;
  // Keyed: the next category starts again from nothing revealed.
  return (
    <Presentation
      key={category.address}
      eventId={eventId}
      shown={category}
      following={nextCategory(categories, category)}
    />
  );
}

function Presentation({
  eventId,
  shown,
  following,
}: {
  eventId: string;
  shown: EventCategoryView;
  following: EventCategoryView | undefined;
}) {
  const category = shown.address;
  const navigate = useNavigate();
  const event = useEvent(eventId);
  const ranking = useRanking(eventId, category, 1);
  const fullscreen = useFullscreen();
  // The ceremony reveals as many places as the category asks of each exhibitor, n° to 1°.
  const top = ranking.data?.rows.slice(0, shown.nomineeLimit) ?? [];
  const [revealed, setRevealed] = useState(0);
  const done = revealed >= top.length;

  const next = useCallback(
    () => setRevealed((count) => Math.min(count + 1, top.length)),
    [top.length],
  );
  const previous = useCallback(() => setRevealed((count) => Math.max(count - 1, 0)), []);
  const goOn = useCallback(() => {
    if (following) void navigate(presentPath(eventId, following.address));
  }, [navigate, eventId, following]);
  const leave = useCallback(() => {
    void navigate(`/admin/event/${encodeURIComponent(eventId)}/${category}`);
  }, [navigate, eventId, category]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      // Enter and Space on a focused button press that button, and only that.
      const onControl = e.target instanceof Element && e.target.closest('button, a') !== null;
      if (FORWARD_KEYS.has(e.key) && !(onControl && (e.key === ' ' || e.key === 'Enter'))) {
        e.preventDefault();
        if (done) goOn();
        else next();
      } else if (BACK_KEYS.has(e.key)) {
        e.preventDefault();
        previous();
      } else if (e.key === 'Escape') leave();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [done, next, previous, goOn, leave]);

  if (event.isPending || ranking.isPending) return <Loading />;
  if (event.isError || ranking.isError) {
    // Sealed results say so (docs/decisions/0036); anything else is an error.
    const sealed = ranking.error instanceof ApiError && ranking.error.code === 'results_sealed';
    return (
      <Typography sx={{ m: 2 }}>{sealed ? MSG.resultsSealedNotice : MSG.genericError}</Typography>
    );
  }
  const heading = `Nominación Reseller ${shown.name}`;
  const stop =
    (action: () => void) =>
    (e: { stopPropagation(): void }): void => {
      e.stopPropagation();
      action();
    };

  return (
    <Box
      component="main"
      onClick={next}
      sx={{
        minHeight: '100vh',
        bgcolor: GROUND,
        color: INK,
        px: { xs: 2, md: 6 },
        py: { xs: 2, md: '3vh' },
        display: 'flex',
        flexDirection: 'column',
        gap: { xs: 2, md: '2vh' },
        cursor: done ? 'default' : 'pointer',
        userSelect: 'none',
      }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', gap: 2 }}>
        <Box
          component="img"
          src={`/api/events/${encodeURIComponent(eventId)}/logo`}
          alt="Logo"
          sx={{
            height: { xs: 40, md: '8vh' },
            maxWidth: { xs: 120, md: 240 },
            objectFit: 'contain',
            bgcolor: INK,
            borderRadius: 1,
            p: 0.5,
          }}
        />
        <Typography
          sx={{ flex: 1, fontSize: { xs: '1.25rem', md: SIZE.event }, color: MUTED, minWidth: 0 }}
        >
          {event.data.name}
        </Typography>
        {fullscreen.available ? (
          <Tooltip title="Pantalla completa">
            <IconButton
              aria-label="Pantalla completa"
              aria-pressed={fullscreen.active}
              onClick={stop(fullscreen.toggle)}
              sx={{ color: INK }}
            >
              {fullscreen.active ? (
                <FullscreenExitIcon fontSize="large" />
              ) : (
                <FullscreenIcon fontSize="large" />
              )}
            </IconButton>
          </Tooltip>
        ) : null}
        <Tooltip title="Salir">
          <IconButton aria-label="Salir" onClick={stop(leave)} sx={{ color: INK }}>
            <CloseIcon fontSize="large" />
          </IconButton>
        </Tooltip>
      </Stack>
      <Typography
        variant="h1"
        sx={{
          fontSize: { xs: '2rem', md: SIZE.heading },
          fontWeight: 700,
          overflowWrap: 'anywhere',
        }}
      >
        {heading}
      </Typography>
      {ranking.data.votingOpen ? (
        <Typography
          role="note"
          sx={{
            alignSelf: 'flex-start',
            fontSize: { xs: '1rem', md: SIZE.points },
            color: ACCENT,
            border: `2px solid ${ACCENT}`,
            borderRadius: 1,
            px: 1.5,
            py: 0.5,
          }}
        >
          {MSG.votingStillOpen}
        </Typography>
      ) : null}
      {top.length === 0 ? (
        <Typography sx={{ fontSize: { xs: '1.5rem', md: SIZE.name } }}>{MSG.noVotes}</Typography>
      ) : (
        <Box
          component="ol"
          aria-label="Primeros puestos"
          aria-live="polite"
          sx={{
            listStyle: 'none',
            m: 0,
            p: 0,
            flex: { md: 1 },
            display: 'flex',
            flexDirection: 'column',
            justifyContent: 'space-evenly',
            gap: { xs: 1, md: '1vh' },
          }}
        >
          {top.map((row, index) => (
            <Place key={row.fiscalId} row={row} shown={index >= top.length - revealed} />
          ))}
        </Box>
      )}
      <Box
        sx={{
          mt: 'auto',
          display: 'flex',
          flexWrap: 'wrap',
          justifyContent: 'flex-end',
          gap: 2,
        }}
      >
        <Button
          variant="outlined"
          size="large"
          disabled={revealed === 0}
          onClick={stop(previous)}
          sx={{
            fontSize: { xs: '1.25rem', md: SIZE.points },
            px: 4,
            color: INK,
            borderColor: INK,
            '&.Mui-disabled': { color: '#cfd8dc', borderColor: '#607d8b' },
          }}
        >
          Anterior
        </Button>
        <Button
          variant="contained"
          size="large"
          disabled={done}
          onClick={stop(next)}
          sx={{ fontSize: { xs: '1.25rem', md: SIZE.points }, px: 4, ...PRIMARY }}
        >
          Siguiente
        </Button>
        {done && following ? (
          <Button
            variant="contained"
            size="large"
            onClick={stop(goOn)}
            sx={{ fontSize: { xs: '1.25rem', md: SIZE.points }, px: 4, ...PRIMARY }}
          >
            {`Continuar con ${following.name}`}
          </Button>
        ) : null}
      </Box>
    </Box>
  );
}

/** One place of the podium: its number always, the nominee once revealed. */
function Place({ row, shown }: { row: RankingRow; shown: boolean }) {
  return (
    <Box
      component="li"
      sx={{
        display: 'flex',
        alignItems: 'baseline',
        gap: { xs: 1.5, md: 3 },
        borderBottom: `1px solid ${MUTED}`,
        pb: { xs: 0.5, md: 1 },
      }}
    >
      <Typography
        component="span"
        sx={{
          fontSize: { xs: '2rem', md: SIZE.place },
          fontWeight: 700,
          color: ACCENT,
          minWidth: '2.2ch',
        }}
      >
        {row.position}°
      </Typography>
      {shown ? (
        <>
          <Typography
            component="span"
            sx={{
              flex: 1,
              fontSize: { xs: '1.5rem', md: SIZE.name },
              fontWeight: 600,
              overflowWrap: 'anywhere',
            }}
          >
            {row.name}
          </Typography>
          <Typography
            component="span"
            sx={{ fontSize: { xs: '1.1rem', md: SIZE.points }, color: MUTED, whiteSpace: 'nowrap' }}
          >
            {row.points === 1 ? '1 punto' : `${row.points} puntos`}
          </Typography>
        </>
      ) : (
        <Typography
          component="span"
          sx={{ fontSize: { xs: '2rem', md: SIZE.place }, color: MUTED }}
        >
          <span aria-hidden="true">…</span>
          <Box component="span" sx={visuallyHidden}>
            Sin revelar
          </Box>
        </Typography>
      )}
    </Box>
  );
}
