import { MSG } from '../../../shared/messages.ts';
import {
  DEFAULT_NOMINEE_FIELDS,
  isFieldAsked,
  type NomineeFieldSettings,
} from '../../../shared/nominee-fields.ts';
import type { NomineeView } from '../../../shared/schemas/nominee.ts';
import type { MoveDirection } from '../../../shared/schemas/nominations.ts';
import { IconButton } from '../../components/plain/Icon.tsx';
import { PlainTable, type PlainColumn } from '../../components/plain/Table.tsx';

export type RowAction = 'up' | 'down' | 'edit' | 'remove';

/** DOM id of a row's control, so the screen can put focus back after the row moves. */
export const rowControlId = (listId: string, fiscalId: string, action: RowAction) =>
  `${listId}-${fiscalId}-${action}`;

/**
 * One ranked list: "Orden", "Reseller", "ID fiscal", "Contacto", "Email" and, while voting is
 * open, the row controls. On a phone the fiscal id, contact and email fold under the reseller's name and the four controls
 * sit two by two, so nothing scrolls sideways at 390 px. Plain elements (shell.css): the
 * exhibitor's screens show without MUI.
 */
export function NomineeList({
  listId,
  label,
  nominees,
  editable,
  fields = DEFAULT_NOMINEE_FIELDS,
  onMove,
  onEdit,
  onRemove,
}: {
  listId: string;
  label: string;
  nominees: NomineeView[];
  editable: boolean;
  /** The fields the event asks for: "Contacto" and "Email" show only when asked. */
  fields?: NomineeFieldSettings;
  onMove(nominee: NomineeView, direction: MoveDirection): void;
  onEdit(nominee: NomineeView): void;
  onRemove(nominee: NomineeView): void;
}) {
  const showContact = isFieldAsked('contactName', fields);
  const showEmail = isFieldAsked('email', fields);
  const columns: PlainColumn<NomineeView>[] = [
    { header: 'Orden', width: 84, align: 'center', render: (n) => n.order },
    {
      header: 'Reseller',
      render: (n) => (
        <>
          <span className="nominee-name">{n.name}</span>
          <span className="plain-phone-only">
            {[
              `ID fiscal ${n.fiscalId}`,
              ...(showContact ? [n.contactName] : []),
              ...(showEmail ? [n.email] : []),
            ].join(' · ')}
          </span>
        </>
      ),
    },
    // The fiscal id is what makes two entries one reseller: the exhibitor sees which one they gave.
    { header: 'ID fiscal', hideOnPhone: true, render: (n) => n.fiscalId },
    ...(showContact
      ? [{ header: 'Contacto', hideOnPhone: true, render: (n: NomineeView) => n.contactName }]
      : []),
    ...(showEmail
      ? [{ header: 'Email', hideOnPhone: true, render: (n: NomineeView) => n.email }]
      : []),
  ];
  if (editable && nominees.length > 0) {
    columns.push({
      header: 'Acciones',
      align: 'center',
      // As narrow as its buttons: the rest of the row goes to the text columns.
      width: '1%',
      render: (n, index) => (
        <div className="nominee-actions">
          <IconButton
            id={rowControlId(listId, n.fiscalId, 'up')}
            label="Subir"
            icon="up"
            disabled={index === 0}
            onClick={() => onMove(n, 'up')}
          />
          <IconButton
            id={rowControlId(listId, n.fiscalId, 'down')}
            label="Bajar"
            icon="down"
            disabled={index === nominees.length - 1}
            onClick={() => onMove(n, 'down')}
          />
          <IconButton
            id={rowControlId(listId, n.fiscalId, 'edit')}
            label="Editar"
            icon="edit"
            onClick={() => onEdit(n)}
          />
          <IconButton
            id={rowControlId(listId, n.fiscalId, 'remove')}
            label="Eliminar"
            icon="delete"
            onClick={() => onRemove(n)}
          />
        </div>
      ),
    });
  }
  return (
    <PlainTable
      label={label}
      columns={columns}
      rows={nominees}
      rowKey={(n) => n.fiscalId}
      emptyText={MSG.noNominations}
    />
  );
}
