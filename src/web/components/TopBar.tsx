import AddModeratorIcon from '@mui/icons-material/PersonAddAlt1';
import DownloadIcon from '@mui/icons-material/Download';
import ImageIcon from '@mui/icons-material/Image';
import GroupIcon from '@mui/icons-material/Group';
import ListAltIcon from '@mui/icons-material/ListAlt';
import SecurityIcon from '@mui/icons-material/Security';
import { AppBar, Box, Button, IconButton, Link, Toolbar, Tooltip } from '@mui/material';
import { Suspense, useState, type ComponentType } from 'react';
import { useNavigate } from 'react-router';
import { signOut as signOutEndpoint } from '../../shared/api/session.ts';
import { useEndpointMutation } from '../lib/api.ts';
import { useCurrentUser, useRefreshSession } from '../lib/session.ts';

type DialogComponent = ComponentType<{ open: boolean; onClose(): void }>;

/** The administrator's dialogs come from the layout that composes the bar with the features. */
export interface TopBarProps {
  LogoDialog: DialogComponent;
  RegisterAdminDialog: DialogComponent;
}

export function TopBar({ LogoDialog, RegisterAdminDialog }: TopBarProps) {
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const [dialog, setDialog] = useState<'logo' | 'admin' | null>(null);
  const endSession = useEndpointMutation(signOutEndpoint);

  async function signOut() {
    await endSession.mutateAsync({}).catch(() => undefined);
    await refreshSession();
    await navigate('/');
  }

  return (
    <AppBar position="static" color="inherit" elevation={1}>
      <Toolbar sx={{ gap: { xs: 0.25, sm: 1 }, py: 0.5, px: { xs: 1, sm: 2 } }}>
        <Box
          component="img"
          src="/api/logo"
          alt="Logo"
          sx={{ height: { xs: 32, sm: 40 }, maxWidth: { xs: 88, sm: 160 }, objectFit: 'contain' }}
        />
        <Box sx={{ flexGrow: 1 }} />
        {user?.role === 'admin' ? (
          <>
            {[
              { label: 'Actualizar logo', icon: <ImageIcon />, onClick: () => setDialog('logo') },
              {
                label: 'Administradores',
                icon: <GroupIcon />,
                onClick: () => void navigate('/admin/admins'),
              },
              {
                label: 'Padrón',
                icon: <ListAltIcon />,
                onClick: () => void navigate('/admin/resellers'),
              },
              {
                label: 'Seguridad',
                icon: <SecurityIcon />,
                onClick: () => void navigate('/admin/security'),
              },
              {
                label: 'Registrar nuevo administrador',
                icon: <AddModeratorIcon />,
                onClick: () => setDialog('admin'),
              },
            ].map(({ label, icon, onClick }) => (
              <Tooltip key={label} title={label}>
                {/* Five icons, the manual and "Salir" fit a 390 px phone with a tighter padding. */}
                <IconButton aria-label={label} onClick={onClick} sx={{ p: { xs: 0.5, sm: 1 } }}>
                  {icon}
                </IconButton>
              </Tooltip>
            ))}
          </>
        ) : null}
        {/* On a phone only the icon shows; the accessible name stays the same. */}
        <Link
          href="/api/manual"
          download
          underline="hover"
          aria-label="Descargar Instructivo"
          sx={{
            fontSize: 14,
            display: 'inline-flex',
            alignItems: 'center',
            gap: 0.5,
            p: { xs: 1, sm: 0 },
          }}
        >
          <DownloadIcon fontSize="small" sx={{ display: { xs: 'inline-block', sm: 'none' } }} />
          <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
            Descargar Instructivo
          </Box>
        </Link>
        <Button variant="outlined" size="small" onClick={() => void signOut()}>
          Salir
        </Button>
      </Toolbar>
      <Suspense>
        {dialog === 'logo' ? <LogoDialog open onClose={() => setDialog(null)} /> : null}
        {dialog === 'admin' ? <RegisterAdminDialog open onClose={() => setDialog(null)} /> : null}
      </Suspense>
    </AppBar>
  );
}
