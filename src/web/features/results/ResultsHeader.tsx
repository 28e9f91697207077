import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, IconButton, Stack, Tooltip } from '@mui/material';
import CloudDownloadIcon from '@mui/icons-material/CloudDownload';
import { useState, type ReactNode } from 'react';
import { exportEvent } from '../../../shared/api/results.ts';
import { useToast } from '../../components/Toasts.tsx';
import { errorMessage } from '../../lib/api.ts';
import { downloadFile } from './queries.ts';

/** An icon-only button whose accessible name is its label, with the same text as tooltip. */
export function IconAction({
  label,
  icon,
  disabled,
  onClick,
}: {
  label: string;
  icon: ReactNode;
  disabled?: boolean;
  onClick(): void;
}) {
  const button = (
    <IconButton aria-label={label} onClick={onClick} disabled={disabled}>
      {icon}
    </IconButton>
  );
  return disabled ? button : <Tooltip title={label}>{button}</Tooltip>;
}

export const RefreshAction = (props: { disabled?: boolean; onClick(): void }) => (
  <IconAction label="Actualizar" icon={<RefreshIcon />} {...props} />
);

export const ExportAction = (props: { disabled?: boolean; onClick(): void }) => (
  <IconAction label="Exportar" icon={<FileDownloadIcon />} {...props} />
);

/** The event header's "Exportar todo": the whole event as `{eventName}-completo.xlsx`. */
export function ExportEventAction({ eventId }: { eventId: string }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  return (
    <IconAction
      label="Exportar todo"
      icon={<CloudDownloadIcon />}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        downloadFile(exportEvent, { params: { eventId } })
          .catch((error: unknown) => toast(errorMessage(error), { severity: 'error' }))
          .finally(() => setBusy(false));
      }}
    />
  );
}

export function BackButton({ onClick }: { onClick(): void }) {
  return (
    <Button startIcon={<ArrowBackIcon />} onClick={onClick} sx={{ alignSelf: 'flex-start' }}>
      Atras
    </Button>
  );
}

/** A heading with its actions on the right; the actions wrap under it on a narrow phone. */
export function TitleRow({ title, actions }: { title: ReactNode; actions: ReactNode }) {
  return (
    <Stack
      direction="row"
      sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 1, rowGap: 0.5, mb: 1.5 }}
    >
      <Box sx={{ flex: '1 1 12rem', minWidth: 0, overflowWrap: 'anywhere' }}>{title}</Box>
      <Stack direction="row">{actions}</Stack>
    </Stack>
  );
}
