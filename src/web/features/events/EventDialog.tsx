import {
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  TextField,
} from '@mui/material';
import { DesktopDatePicker } from '@mui/x-date-pickers/DesktopDatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { esES } from '@mui/x-date-pickers/locales';
import 'dayjs/locale/es';
import { useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import {
  Controller,
  useForm,
  type Control,
  type FieldError,
  type FieldErrors,
  type Resolver,
} from 'react-hook-form';
import { zoneLabel } from '../../../shared/deadline-zone.ts';
import { MSG } from '../../../shared/messages.ts';
import {
  NOMINABLE_RESELLERS,
  NOMINABLE_RESELLERS_LABELS,
  type NominableResellers,
} from '../../../shared/registry.ts';
import {
  DEFAULT_REMINDERS,
  REMINDER_KIND_LABELS,
  REMINDER_KINDS,
  type EventView,
  type ReminderKind,
} from '../../../shared/schemas/events.ts';
import {
  DEFAULT_NOMINEE_FIELDS,
  type NomineeFieldSettings,
} from '../../../shared/nominee-fields.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormTextField } from '../../components/FormTextField.tsx';
import { ApiError } from '../../lib/api.ts';
import { NomineeFieldsSection } from './NomineeFieldsSection.tsx';
import { eventQuery, useCreateEvent, useDuplicateEvent, useUpdateEvent } from './queries.ts';

interface FormValues {
  name: string;
  eventDate: Dayjs | null;
  voteDeadline: Dayjs | null;
  reminders: ReminderKind[];
  copyExhibitors: boolean;
  sendInvitations: boolean;
  /** "Avisar a los expositores", offered when an edit moves the deadline later. */
  notifyExhibitors: boolean;
  /** "Datos del nominado". */
  nomineeFields: NomineeFieldSettings;
  /** "Resellers nominables" and "Validar CUIT" (issue 27). */
  nominableResellers: NominableResellers;
  validateCuit: boolean;
  /** "Ocultar resultados hasta el cierre" (issue 28). */
  sealResults: boolean;
  /** "Hora de cierre", `HH:MM`. */
  closeTime: string;
  /** "Zona horaria". */
  timeZone: string;
  /** "Apertura de la votación", `YYYY-MM-DDTHH:MM`, or empty: open at once. */
  votingOpensAt: string;
}

/** The checkboxes only "Duplicar evento" has. */
const DUPLICATE_OPTIONS = [
  ['copyExhibitors', 'Copiar expositores'],
  ['sendInvitations', 'Enviar invitaciones'],
] as const;

const ISO = 'YYYY-MM-DD';
const DATE_FIELDS = [
  ['eventDate', 'Fecha del evento'],
  ['voteDeadline', 'Fecha límite'],
] as const;

const requireAll: Resolver<FormValues> = async (values) => {
  const errors: Record<string, FieldError> = {};
  const required: FieldError = { type: 'required', message: MSG.requiredField };
  if (!values.name.trim()) errors.name = required;
  if (!values.eventDate) errors.eventDate = required;
  if (!values.voteDeadline) errors.voteDeadline = required;
  return Object.keys(errors).length > 0
    ? { values: {}, errors: errors as FieldErrors<FormValues> }
    : { values, errors: {} };
};

/**
 * "Nuevo evento" / "Editar evento" / "Duplicar evento". Dates are typed or picked; the desktop
 * variant of the picker everywhere, because the touch variant opens a calendar instead of taking
 * typed digits. A duplicate starts from the source's name and reminders, with new dates to choose.
 */
interface EventDialogProps {
  /** The event to edit; a new one when absent. */
  event?: EventView;
  /** The event to duplicate: the new one gets its exhibitors when asked. */
  duplicateOf?: EventView;
  /** A new event's "Zona horaria" (APP_TIMEZONE); the server's own default when unknown. */
  defaultTimeZone?: string | undefined;
  onSaved?(saved: EventView): void;
  onClose(): void;
}

const pickerTexts = esES.components.MuiLocalizationProvider.defaultProps.localeText;

/**
 * The event's dialog, with the date pickers' provider: the pickers (and their locale) load with
 * this dialog only, never with a screen an exhibitor opens.
 */
export function EventDialog(props: EventDialogProps) {
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="es" localeText={pickerTexts}>
      <EventForm {...props} />
    </LocalizationProvider>
  );
}

function EventForm({ event, duplicateOf, defaultTimeZone, onSaved, onClose }: EventDialogProps) {
  const client = useQueryClient();
  const create = useCreateEvent();
  const update = useUpdateEvent();
  const duplicate = useDuplicateEvent();
  const [error, setError] = useState<string | null>(null);
  const [datesInvalid, setDatesInvalid] = useState(false);
  const form = useForm<FormValues>({
    resolver: requireAll,
    defaultValues: {
      name: event?.name ?? duplicateOf?.name ?? '',
      eventDate: event ? dayjs(event.eventDate) : null,
      voteDeadline: event ? dayjs(event.voteDeadline) : null,
      reminders: [...(event?.reminders ?? duplicateOf?.reminders ?? DEFAULT_REMINDERS)],
      copyExhibitors: true,
      sendInvitations: false,
      notifyExhibitors: false,
      nomineeFields: { ...((event ?? duplicateOf)?.nomineeFields ?? DEFAULT_NOMINEE_FIELDS) },
      nominableResellers: (event ?? duplicateOf)?.nominableResellers ?? 'any',
      validateCuit: (event ?? duplicateOf)?.validateCuit ?? false,
      sealResults: (event ?? duplicateOf)?.sealResults ?? false,
      closeTime: event?.closeTime ?? duplicateOf?.closeTime ?? '23:59',
      timeZone: event?.timeZone ?? duplicateOf?.timeZone ?? defaultTimeZone ?? '',
      votingOpensAt: event?.votingOpensAt ?? '',
    },
  });
  const deadline = form.watch('voteDeadline');
  // Only an edit that moves the deadline later has anything to announce.
  const extendsDeadline =
    event !== undefined &&
    deadline?.isValid() === true &&
    deadline.format(ISO) > event.voteDeadline;

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    setDatesInvalid(false);
    const eventDate = values.eventDate?.format(ISO) ?? '';
    const voteDeadline = values.voteDeadline?.format(ISO) ?? '';
    // A half-typed or impossible date (31/02) cannot be sent; every other date rule is the
    // server's, whose "today" is the one of APP_TIMEZONE.
    if (values.eventDate?.isValid() === false || values.voteDeadline?.isValid() === false) {
      setError(MSG.invalidDates);
      setDatesInvalid(true);
      return;
    }
    try {
      const body = {
        name: values.name,
        eventDate,
        voteDeadline,
        reminders: values.reminders,
        nomineeFields: values.nomineeFields,
        nominableResellers: values.nominableResellers,
        validateCuit: values.validateCuit,
        sealResults: values.sealResults,
        closeTime: values.closeTime,
        // Empty only when the list that gives APP_TIMEZONE has not loaded: the server's default.
        ...(values.timeZone ? { timeZone: values.timeZone } : {}),
        votingOpensAt: values.votingOpensAt || null,
      };
      const saved = event
        ? await update.mutateAsync({
            params: { eventId: event.id },
            body: { ...body, notifyExhibitors: extendsDeadline && values.notifyExhibitors },
          })
        : duplicateOf
          ? await duplicate.mutateAsync({
              params: { eventId: duplicateOf.id },
              body: {
                ...body,
                copyExhibitors: values.copyExhibitors,
                sendInvitations: values.copyExhibitors && values.sendInvitations,
              },
            })
          : await create.mutateAsync({ body });
      client.setQueryData(eventQuery(saved.id).queryKey, saved);
      onSaved?.(saved);
      onClose();
    } catch (caught) {
      const refused = caught instanceof ApiError && caught.status >= 400 && caught.status < 500;
      setError(refused ? caught.message : MSG.genericErrorDot);
      setDatesInvalid(
        refused &&
          (caught.message === MSG.invalidDates || caught.message === MSG.deadlineAfterEvent),
      );
      if (refused && caught.fields) {
        for (const field of ['closeTime', 'timeZone', 'votingOpensAt'] as const) {
          const message = caught.fields[field];
          if (message) form.setError(field, { message });
        }
      }
    }
  });

  return (
    <FormDialog
      open
      title={event ? 'Editar evento' : duplicateOf ? 'Duplicar evento' : 'Nuevo evento'}
      error={error}
      busy={form.formState.isSubmitting}
      onSubmit={(e) => void submit(e)}
      onClose={onClose}
    >
      <FormTextField
        control={form.control}
        name="name"
        label="Nombre"
        required
        autoFocus
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
      {DATE_FIELDS.map(([field, label]) => (
        <Controller
          key={field}
          control={form.control}
          name={field}
          render={({ field: { ref, value, onChange, onBlur }, fieldState }) => (
            <DesktopDatePicker
              label={label}
              value={value}
              inputRef={ref}
              onChange={(next) => {
                onChange(next);
                setDatesInvalid(false);
              }}
              format="DD/MM/YYYY"
              // One plain text input per date: it takes a typed or pasted date, and its label
              // names exactly one element.
              enableAccessibleFieldDOMStructure={false}
              disablePast={!event}
              slotProps={{
                textField: {
                  name: field,
                  required: true,
                  fullWidth: true,
                  onBlur,
                  error: Boolean(fieldState.error) || datesInvalid,
                  helperText: fieldState.error?.message ?? 'dd/mm/aaaa',
                },
              }}
            />
          )}
        />
      ))}
      <CalendarFields control={form.control} />
      <Controller
        control={form.control}
        name="reminders"
        render={({ field: { value, onChange } }) => (
          <FormControl component="fieldset">
            <FormLabel component="legend">Recordatorios por email</FormLabel>
            <FormGroup>
              {REMINDER_KINDS.map((kind) => (
                <FormControlLabel
                  key={kind}
                  label={REMINDER_KIND_LABELS[kind]}
                  control={
                    <Checkbox
                      checked={value.includes(kind)}
                      onChange={(change) =>
                        onChange(
                          change.target.checked
                            ? REMINDER_KINDS.filter((k) => k === kind || value.includes(k))
                            : value.filter((k) => k !== kind),
                        )
                      }
                    />
                  }
                />
              ))}
            </FormGroup>
          </FormControl>
        )}
      />
      <Controller
        control={form.control}
        name="nomineeFields"
        render={({ field: { value, onChange } }) => (
          <NomineeFieldsSection value={value} onChange={onChange} />
        )}
      />
      <Controller
        control={form.control}
        name="nominableResellers"
        render={({ field }) => (
          <TextField
            {...field}
            select
            label="Resellers nominables"
            fullWidth
            helperText="Con «Solo los del padrón» se rechaza un ID fiscal que no esté en el padrón."
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            {NOMINABLE_RESELLERS.map((option) => (
              <option key={option} value={option}>
                {NOMINABLE_RESELLERS_LABELS[option]}
              </option>
            ))}
          </TextField>
        )}
      />
      <Controller
        control={form.control}
        name="validateCuit"
        render={({ field: { value, onChange } }) => (
          <FormControlLabel
            label="Validar CUIT"
            control={
              <Checkbox checked={value} onChange={(change) => onChange(change.target.checked)} />
            }
          />
        )}
      />
      <Controller
        control={form.control}
        name="sealResults"
        render={({ field: { value, onChange } }) => (
          <FormControlLabel
            label="Ocultar resultados hasta el cierre"
            control={
              <Checkbox checked={value} onChange={(change) => onChange(change.target.checked)} />
            }
          />
        )}
      />
      {extendsDeadline ? (
        <FormGroup>
          <Controller
            control={form.control}
            name="notifyExhibitors"
            render={({ field: { value, onChange } }) => (
              <FormControlLabel
                label="Avisar a los expositores"
                control={
                  <Checkbox
                    checked={value}
                    onChange={(change) => onChange(change.target.checked)}
                  />
                }
              />
            )}
          />
        </FormGroup>
      ) : null}
      {duplicateOf ? (
        <FormGroup>
          {DUPLICATE_OPTIONS.map(([name, label]) => (
            <Controller
              key={name}
              control={form.control}
              name={name}
              render={({ field: { value, onChange } }) => (
                <FormControlLabel
                  label={label}
                  control={
                    <Checkbox
                      checked={value}
                      onChange={(change) => onChange(change.target.checked)}
                    />
                  }
                />
              )}
            />
          ))}
        </FormGroup>
      ) : null}
    </FormDialog>
  );
}

/** Every zone the browser knows, and the one chosen even if it does not (an alias). */
function zoneOptions(chosen: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return chosen && !zones.includes(chosen) ? [chosen, ...zones] : zones;
}

/**
 * The event's calendar (issue 31): "Hora de cierre" of the deadline day, "Zona horaria" every date
 * and hour of the event is read in, and the optional "Apertura de la votación" (before it the
 * event is a draft). Plain inputs: typed or picked, each named by its label.
 */
function CalendarFields({ control }: { control: Control<FormValues> }) {
  return (
    <>
      <Controller
        control={control}
        name="closeTime"
        render={({ field, fieldState }) => (
          <TextField
            {...field}
            label="Hora de cierre"
            type="time"
            required
            fullWidth
            error={Boolean(fieldState.error)}
            helperText={fieldState.error?.message ?? 'hh:mm, del día de la fecha límite'}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        )}
      />
      <Controller
        control={control}
        name="timeZone"
        render={({ field, fieldState }) => (
          <TextField
            {...field}
            select
            label="Zona horaria"
            fullWidth
            error={Boolean(fieldState.error)}
            helperText={
              fieldState.error?.message ??
              (field.value ? `Fechas y horas en ${zoneLabel(field.value)}` : ' ')
            }
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            {field.value ? null : <option value="">Zona horaria del programa</option>}
            {zoneOptions(field.value).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </TextField>
        )}
      />
      <Controller
        control={control}
        name="votingOpensAt"
        render={({ field, fieldState }) => (
          <TextField
            {...field}
            label="Apertura de la votación"
            type="datetime-local"
            fullWidth
            error={Boolean(fieldState.error)}
            helperText={
              fieldState.error?.message ??
              'Opcional. Hasta entonces el evento es un borrador: los expositores no lo ven y no se envían invitaciones ni recordatorios.'
            }
            slotProps={{ inputLabel: { shrink: true } }}
          />
        )}
      />
    </>
  );
}
