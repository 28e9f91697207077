import { zodResolver } from '@hookform/resolvers/zod';
import { Typography } from '@mui/material';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { MSG } from '../../../shared/messages.ts';
import {
  exhibitorInput,
  type EventExhibitorView,
  type ExhibitorFields,
  type ExhibitorInput,
  type ExhibitorSaveResponse,
} from '../../../shared/schemas/exhibitors.ts';
import { INVITATION_NOTICE } from '../../../shared/roster-texts.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormTextField } from '../../components/FormTextField.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { ApiError } from '../../lib/api.ts';
import { useAddExhibitor, useEditExhibitor } from './queries.ts';

const EXHIBITOR_FIELDS = [
  { name: 'fullName', label: 'Nombre completo', type: 'text', maxLength: 200 },
  { name: 'email', label: 'Email', type: 'email', maxLength: 254 },
  { name: 'company', label: 'Empresa', type: 'text', maxLength: 200 },
] as const;

/**
 * "Nuevo votante" invites an exhibitor to the event; given `exhibitor`, the same fields become
 * "Editar expositor" (a new email keeps the votes and the server sends a new invitation).
 */
export function ExhibitorDialog({
  eventId,
  exhibitor,
  onAdded,
  onClose,
}: {
  eventId: string;
  exhibitor?: EventExhibitorView;
  onAdded(exhibitor: ExhibitorSaveResponse): void;
  onClose(): void;
}) {
  const add = useAddExhibitor();
  const edit = useEditExhibitor();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<ExhibitorInput, unknown, ExhibitorFields>({
    resolver: zodResolver(exhibitorInput),
    defaultValues: {
      fullName: exhibitor?.fullName ?? '',
      email: exhibitor?.email ?? '',
      company: exhibitor?.company ?? '',
    },
  });

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      const saved = exhibitor
        ? await edit.mutateAsync({
            params: { eventId, exhibitorId: exhibitor.id },
            body: values,
          })
        : await add.mutateAsync({ params: { eventId }, body: values });
      // Stored, but the address already had its invitations for the hour: say it was not sent.
      if (saved.invitationWithheld) {
        toast(MSG.invitationWithheld, { severity: 'warning', durationMs: 10_000 });
      }
      onAdded(saved);
    } catch (caught) {
      // Conflicts (an administrator's address, already in this event) carry their own message.
      const refused = caught instanceof ApiError && caught.status >= 400 && caught.status < 500;
      setError(refused ? caught.message : MSG.genericError);
    }
  });

  return (
    <FormDialog
      open
      title={exhibitor ? 'Editar expositor' : 'Nuevo votante'}
      error={error}
      busy={form.formState.isSubmitting}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
    >
      {EXHIBITOR_FIELDS.map((field, index) => (
        <FormTextField
          key={field.name}
          control={form.control}
          name={field.name}
          label={field.label}
          type={field.type}
          required
          autoFocus={index === 0}
          autoComplete="off"
          slotProps={{ htmlInput: { maxLength: field.maxLength } }}
        />
      ))}
      {/* When the invitation goes out, said before saving (issue 32). */}
      <Typography variant="body2" color="text.secondary">
        {!exhibitor
          ? INVITATION_NOTICE.add
          : exhibitor.invitation.status === 'none'
            ? INVITATION_NOTICE.editUninvited
            : INVITATION_NOTICE.edit}
      </Typography>
    </FormDialog>
  );
}
