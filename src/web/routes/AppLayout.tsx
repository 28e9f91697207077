import { Box, Container } from '@mui/material';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { esES } from '@mui/x-date-pickers/locales';
import 'dayjs/locale/es';
import { lazy } from 'react';
import { Outlet } from 'react-router';
import { TopBar } from '../components/TopBar.tsx';

const LogoDialog = lazy(() => import('../features/branding/LogoDialog.tsx'));
const RegisterAdminDialog = lazy(() => import('../features/admins/RegisterAdminDialog.tsx'));

const pickerTexts = esES.components.MuiLocalizationProvider.defaultProps.localeText;

/**
 * Signed-in screens: top bar above the page. Loaded on demand, with the date pickers' provider,
 * so that the sign-in screens stay within their JavaScript budget.
 */
export default function AppLayout() {
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="es" localeText={pickerTexts}>
      <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
        <TopBar LogoDialog={LogoDialog} RegisterAdminDialog={RegisterAdminDialog} />
        <Container
          component="main"
          maxWidth="lg"
          sx={{ py: { xs: 2, sm: 3 }, px: { xs: 1.5, sm: 3 } }}
        >
          <Outlet />
        </Container>
      </Box>
    </LocalizationProvider>
  );
}
