import { Dialog, DialogTitle } from '@mui/material';

// Placeholder until the sign-in issue builds it.
export default function RegisterAdminDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Dialog open={open} onClose={onClose}>
      <DialogTitle>Registrar nuevo administrador</DialogTitle>
    </Dialog>
  );
}
