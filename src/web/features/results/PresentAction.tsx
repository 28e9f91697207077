import SlideshowIcon from '@mui/icons-material/Slideshow';
import { useNavigate } from 'react-router';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { IconAction } from './ResultsHeader.tsx';

export const presentPath = (eventId: string, category: CategoryAddress) =>
  `/admin/event/${encodeURIComponent(eventId)}/present/${category}`;

/**
 * Icon button "Presentar": opens the ceremony screen, full screen where the browser allows it
 * (the click is the gesture the Fullscreen API asks for; refused, the page still fills the window).
 */
export function PresentAction({
  eventId,
  category,
}: {
  eventId: string;
  category: CategoryAddress;
}) {
  const navigate = useNavigate();
  return (
    <IconAction
      label="Presentar"
      icon={<SlideshowIcon />}
      onClick={() => {
        document.documentElement.requestFullscreen?.().catch(() => undefined);
        void navigate(presentPath(eventId, category));
      }}
    />
  );
}
