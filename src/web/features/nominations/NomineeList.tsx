import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Box, IconButton, Tooltip, Typography } from '@mui/material';
import type { ReactElement } from 'react';
import { MSG } from '../../../shared/messages.ts';
import type { NomineeView } from '../../../shared/schemas/nominee.ts';
import type { MoveDirection } from '../../../shared/schemas/nominations.ts';
import { PhoneOnly } from '../../components/PhoneOnly.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';

export type RowAction = 'up' | 'down' | 'edit' | 'remove';

/** DOM id of a row's control, so the screen can put focus back after the row moves. */
export const rowControlId = (listId: string, fiscalId: string, action: RowAction) =>
  `${listId}-${fiscalId}-${action}`;

function ActionButton({
  id,
  label,
  icon,
  disabled,
  onClick,
}: {
  id: string;
  label: string;
  icon: ReactElement;
  disabled?: boolean;
  onClick(): void;
}) {
  const button = (
    <IconButton id={id} aria-label={label} disabled={disabled} onClick={onClick} size="medium">
      {icon}
    </IconButton>
  );
  // A disabled button fires no events, so its tooltip needs a wrapper to hover.
  return disabled ? (
    button
  ) : (
    <Tooltip title={label} disableInteractive>
      {button}
    </Tooltip>
  );
}

/**
 * One ranked list: "Orden", "Reseller", "Contacto", "Email" and, while voting is open, the row
 * controls. On a phone the contact and email fold under the reseller's name and the four controls
 * sit two by two, so nothing scrolls sideways at 390 px.
 */
export function NomineeList({
  listId,
  label,
  nominees,
  editable,
  onMove,
  onEdit,
  onRemove,
}: {
  listId: string;
  label: string;
  nominees: NomineeView[];
  editable: boolean;
  onMove(nominee: NomineeView, direction: MoveDirection): void;
  onEdit(nominee: NomineeView): void;
  onRemove(nominee: NomineeView): void;
}) {
  const columns: Column<NomineeView>[] = [
    { header: 'Orden', width: 84, align: 'center', render: (n) => n.order },
    {
      header: 'Reseller',
      render: (n) => (
        <>
          <Typography component="span" sx={{ fontWeight: 600, display: 'block' }}>
            {n.name}
          </Typography>
          <PhoneOnly>
            {n.contactName} · {n.email}
          </PhoneOnly>
        </>
      ),
    },
    { header: 'Contacto', hideOnPhone: true, render: (n) => n.contactName },
    { header: 'Email', hideOnPhone: true, render: (n) => n.email },
  ];
  if (editable && nominees.length > 0) {
    columns.push({
      header: 'Acciones',
      align: 'center',
      // As narrow as its buttons: the rest of the row goes to the text columns.
      width: '1%',
      render: (n, index) => (
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: 'repeat(2, 40px)', sm: 'repeat(4, 40px)' },
            justifyContent: 'center',
          }}
        >
          <ActionButton
            id={rowControlId(listId, n.fiscalId, 'up')}
            label="Subir"
            icon={<ArrowUpwardIcon />}
            disabled={index === 0}
            onClick={() => onMove(n, 'up')}
          />
          <ActionButton
            id={rowControlId(listId, n.fiscalId, 'down')}
            label="Bajar"
            icon={<ArrowDownwardIcon />}
            disabled={index === nominees.length - 1}
            onClick={() => onMove(n, 'down')}
          />
          <ActionButton
            id={rowControlId(listId, n.fiscalId, 'edit')}
            label="Editar"
            icon={<EditIcon />}
            onClick={() => onEdit(n)}
          />
          <ActionButton
            id={rowControlId(listId, n.fiscalId, 'remove')}
            label="Eliminar"
            icon={<DeleteIcon />}
            onClick={() => onRemove(n)}
          />
        </Box>
      ),
    });
  }
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={nominees}
      rowKey={(n) => n.fiscalId}
      emptyText={MSG.noNominations}
    />
  );
}
