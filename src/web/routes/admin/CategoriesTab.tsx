import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
  Alert,
  Box,
  Button,
  IconButton,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { useId, useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { getEvent, listEvents } from '../../../shared/api/events.ts';
import {
  createCategory,
  deleteCategory,
  listCategories,
  moveCategory,
  updateCategory,
} from '../../../shared/api/categories.ts';
import {
  CATEGORY_SCORINGS,
  MAX_CATEGORIES_PER_EVENT,
  MAX_CATEGORY_NOMINEE_LIMIT,
  type CategoryScoring,
} from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import { categoryInput, type EventCategoryRow } from '../../../shared/schemas/categories.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { useEventWritable } from '../../features/events/queries.ts';
import { endpointKey, endpointQuery, errorMessage, useEndpointMutation } from '../../lib/api.ts';
import { useQuery } from '@tanstack/react-query';

/** "Puntaje" as the table and the dialog say it. */
const SCORING_LABELS: Record<CategoryScoring, string> = {
  place: 'Por puesto',
  one: 'Un punto por nominación',
};

/** A category change renames or reorders the event's tabs: the event is read again too. */
const categoryWritesInvalidate = () => [
  endpointKey(listCategories),
  endpointKey(getEvent),
  endpointKey(listEvents),
];

/**
 * An icon button of a row: its tooltip is its name. Disabled, it stays in view and its tooltip
 * and description say why (a disabled button fires no events: its wrapper carries the tooltip).
 */
function RowAction({
  label,
  icon,
  disabledReason,
  onClick,
}: {
  label: string;
  icon: ReactNode;
  disabledReason?: string | undefined;
  onClick(): void;
}) {
  const reasonId = useId();
  if (disabledReason) {
    return (
      <Tooltip title={`${label}: ${disabledReason}`}>
        {/* Positioned: the hidden reason stays inside the table's sideways-scrolling frame
            instead of widening the page on a phone. */}
        <Box component="span" sx={{ position: 'relative', display: 'inline-block' }}>
          <IconButton aria-label={label} aria-describedby={reasonId} size="small" disabled>
            {icon}
          </IconButton>
          <Box component="span" id={reasonId} sx={visuallyHidden}>
            {disabledReason}
          </Box>
        </Box>
      </Tooltip>
    );
  }
  return (
    <Tooltip title={label}>
      <IconButton aria-label={label} size="small" onClick={onClick}>
        {icon}
      </IconButton>
    </Tooltip>
  );
}

type OpenDialog =
  | { kind: 'new' }
  | { kind: 'edit'; category: EventCategoryRow }
  | { kind: 'delete'; category: EventCategoryRow };

/** The tab "Categorías": the event's categories in their order (docs/decisions/0034). */
export default function CategoriesTab() {
  const { eventId = '' } = useParams();
  const toast = useToast();
  const writable = useEventWritable(eventId);
  const query = useQuery(endpointQuery(listCategories, { params: { eventId } }));
  const move = useEndpointMutation(moveCategory, { invalidates: categoryWritesInvalidate });
  const [dialog, setDialog] = useState<OpenDialog | null>(null);

  function moveRow(category: EventCategoryRow, direction: 'up' | 'down') {
    move.mutate(
      { params: { eventId, category: category.address }, body: { direction } },
      { onError: (error) => toast(errorMessage(error), { severity: 'error' }) },
    );
  }

  return (
    <Stack spacing={1.5} sx={{ mt: 2 }}>
      <QueryState query={query}>
        {({ categories }) => {
          const full = categories.length >= MAX_CATEGORIES_PER_EVENT;
          const columns: Column<EventCategoryRow>[] = [
            {
              header: 'Categoría',
              minWidth: 140,
              render: (category) => (
                <>
                  {category.name}
                  {category.description ? (
                    <Typography
                      component="span"
                      variant="body2"
                      color="text.secondary"
                      sx={{ display: 'block' }}
                    >
                      {category.description}
                    </Typography>
                  ) : null}
                </>
              ),
            },
            {
              header: 'Nominaciones',
              align: 'right',
              keepWords: true,
              render: (category) => category.nomineeLimit,
            },
            {
              header: 'Puntaje',
              render: (category) => SCORING_LABELS[category.scoring],
            },
          ];
          if (writable) {
            columns.push({
              header: 'Acciones',
              align: 'right',
              render: (category, index) => (
                <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
                  <RowAction
                    label="Editar categoría"
                    icon={<EditIcon fontSize="small" />}
                    onClick={() => setDialog({ kind: 'edit', category })}
                  />
                  <RowAction
                    label="Subir"
                    icon={<ArrowUpwardIcon fontSize="small" />}
                    disabledReason={index === 0 ? MSG.categoryAtEdge : undefined}
                    onClick={() => moveRow(category, 'up')}
                  />
                  <RowAction
                    label="Bajar"
                    icon={<ArrowDownwardIcon fontSize="small" />}
                    disabledReason={
                      index === categories.length - 1 ? MSG.categoryAtEdge : undefined
                    }
                    onClick={() => moveRow(category, 'down')}
                  />
                  <RowAction
                    label="Eliminar categoría"
                    icon={<DeleteIcon fontSize="small" />}
                    disabledReason={
                      categories.length <= 1
                        ? MSG.categoryLastOne
                        : category.nominations > 0
                          ? MSG.categoryInUse
                          : undefined
                    }
                    onClick={() => setDialog({ kind: 'delete', category })}
                  />
                </Box>
              ),
            });
          }
          return (
            <>
              {writable ? (
                <Box>
                  {full ? (
                    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                      {MSG.categoriesFull}
                    </Typography>
                  ) : null}
                  <Button
                    variant="contained"
                    disabled={full}
                    onClick={() => setDialog({ kind: 'new' })}
                  >
                    Nueva categoría
                  </Button>
                </Box>
              ) : null}
              <DataTable
                label="Categorías"
                columns={columns}
                rows={categories}
                rowKey={(category) => category.address}
                emptyText={MSG.categoryLastOne}
              />
            </>
          );
        }}
      </QueryState>
      {dialog?.kind === 'new' ? (
        <CategoryDialog eventId={eventId} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === 'edit' ? (
        <CategoryDialog
          eventId={eventId}
          category={dialog.category}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <DeleteCategoryDialog
          eventId={eventId}
          category={dialog.category}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Stack>
  );
}

type FieldErrors = Partial<Record<'name' | 'description' | 'nomineeLimit', string>>;

/**
 * "Nueva categoría" and "Editar categoría". Once the category has nominations its limit and its
 * scoring are shown but cannot change (the server refuses it as well), and the dialog says why.
 */
function CategoryDialog({
  eventId,
  category,
  onClose,
}: {
  eventId: string;
  category?: EventCategoryRow;
  onClose(): void;
}) {
  const toast = useToast();
  const create = useEndpointMutation(createCategory, { invalidates: categoryWritesInvalidate });
  const update = useEndpointMutation(updateCategory, { invalidates: categoryWritesInvalidate });
  const [name, setName] = useState(category?.name ?? '');
  const [description, setDescription] = useState(category?.description ?? '');
  const [limit, setLimit] = useState(String(category?.nomineeLimit ?? 5));
  const [scoring, setScoring] = useState<CategoryScoring>(category?.scoring ?? 'place');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const frozen = (category?.nominations ?? 0) > 0;

  async function submit() {
    const parsed = categoryInput.safeParse({
      name,
      description,
      nomineeLimit: limit.trim() === '' ? Number.NaN : Number(limit),
      scoring,
    });
    if (!parsed.success) {
      const errors: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === 'name' || field === 'description' || field === 'nomineeLimit') {
          errors[field] ??= issue.message;
        }
      }
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    try {
      if (category) {
        await update.mutateAsync({
          params: { eventId, category: category.address },
          body: parsed.data,
        });
        toast('Categoría guardada');
      } else {
        await create.mutateAsync({ params: { eventId }, body: parsed.data });
        toast('Categoría creada');
      }
      onClose();
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  return (
    <FormDialog
      open
      title={category ? 'Editar categoría' : 'Nueva categoría'}
      error={error}
      busy={create.isPending || update.isPending}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField
        label="Nombre"
        required
        fullWidth
        value={name}
        error={fieldErrors.name !== undefined}
        helperText={fieldErrors.name}
        onChange={(event) => setName(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 40 } }}
      />
      <TextField
        label="Descripción"
        fullWidth
        multiline
        minRows={2}
        value={description}
        error={fieldErrors.description !== undefined}
        helperText={
          fieldErrors.description ?? 'Quién puede ser nominado: el expositor la ve sobre su lista.'
        }
        onChange={(event) => setDescription(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 500 } }}
      />
      {frozen ? (
        // Why the next two fields cannot change (a disabled field's own help is too faint to read).
        <Alert severity="info">{MSG.categoryShapeFrozen}</Alert>
      ) : null}
      <TextField
        label="Nominaciones por expositor"
        type="number"
        required
        fullWidth
        disabled={frozen}
        value={limit}
        error={fieldErrors.nomineeLimit !== undefined}
        helperText={fieldErrors.nomineeLimit ?? (frozen ? undefined : 'De 1 a 10.')}
        onChange={(event) => setLimit(event.target.value)}
        slotProps={{ htmlInput: { min: 1, max: MAX_CATEGORY_NOMINEE_LIMIT, step: 1 } }}
      />
      <TextField
        select
        label="Puntaje"
        fullWidth
        disabled={frozen}
        value={scoring}
        helperText={
          frozen ? undefined : 'Por puesto: con n nominados, el 1° suma n puntos y el último 1.'
        }
        onChange={(event) => {
          const chosen = CATEGORY_SCORINGS.find((option) => option === event.target.value);
          if (chosen) setScoring(chosen);
        }}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        {CATEGORY_SCORINGS.map((option) => (
          <option key={option} value={option}>
            {SCORING_LABELS[option]}
          </option>
        ))}
      </TextField>
    </FormDialog>
  );
}

/** "¿Eliminar categoría?": only a category without nominations, never the event's last one. */
function DeleteCategoryDialog({
  eventId,
  category,
  onClose,
}: {
  eventId: string;
  category: EventCategoryRow;
  onClose(): void;
}) {
  const toast = useToast();
  const remove = useEndpointMutation(deleteCategory, { invalidates: categoryWritesInvalidate });
  const [error, setError] = useState<string | null>(null);
  return (
    <ConfirmDialog
      open
      title="¿Eliminar categoría?"
      text={`${category.name}: su pestaña desaparece del evento y de la pantalla de los expositores.`}
      confirmLabel="Eliminar"
      busy={remove.isPending}
      error={error}
      onConfirm={() =>
        remove.mutate(
          { params: { eventId, category: category.address } },
          {
            onSuccess: () => {
              toast('Categoría eliminada');
              onClose();
            },
            onError: (caught) => setError(errorMessage(caught)),
          },
        )
      }
      onClose={onClose}
    />
  );
}
