import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { MSG } from '../../../shared/messages.ts';
import {
  exhibitorInput,
  type EventExhibitorView,
  type ExhibitorFields,
  type ExhibitorInput,
} from '../../../shared/schemas/exhibitors.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormTextField } from '../../components/FormTextField.tsx';
import { ApiError } from '../../lib/api.ts';
import { useAddExhibitor } from './queries.ts';

/** "Nuevo votante": invites an exhibitor to the event (the server sends the email). */
export function ExhibitorDialog({
  eventId,
  onAdded,
  onClose,
}: {
  eventId: string;
  onAdded(exhibitor: EventExhibitorView): void;
  onClose(): void;
}) {
  const add = useAddExhibitor();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<ExhibitorInput, unknown, ExhibitorFields>({
    resolver: zodResolver(exhibitorInput),
    defaultValues: { fullName: '', email: '', company: '' },
  });

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      onAdded(await add.mutateAsync({ params: { eventId }, body: values }));
    } catch (caught) {
      // Conflicts (an administrator's address, already in this event) carry their own message.
      const refused = caught instanceof ApiError && caught.status >= 400 && caught.status < 500;
      setError(refused ? caught.message : MSG.genericError);
    }
  });

  return (
    <FormDialog
      open
      title="Nuevo votante"
      error={error}
      busy={form.formState.isSubmitting}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
    >
      <FormTextField
        control={form.control}
        name="fullName"
        label="Nombre completo"
        required
        autoFocus
        autoComplete="off"
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
      <FormTextField
        control={form.control}
        name="email"
        label="Email"
        type="email"
        required
        autoComplete="off"
        slotProps={{ htmlInput: { maxLength: 254 } }}
      />
      <FormTextField
        control={form.control}
        name="company"
        label="Empresa"
        required
        autoComplete="off"
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
    </FormDialog>
  );
}
