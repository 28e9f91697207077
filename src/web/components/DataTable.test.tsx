import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MSG } from '../../shared/messages.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { DataTable } from './DataTable.tsx';
import { FormDialog } from './FormDialog.tsx';

const columns = [
  { header: 'Nombre', render: (row: { name: string }) => row.name },
  { header: 'Email', render: () => 'x@y.test' },
];

describe('DataTable', () => {
  it('shows column headers and the empty text when there are no rows', () => {
    render(
      <DataTable columns={columns} rows={[]} rowKey={(r) => r.name} emptyText={MSG.noEvents} />,
    );
    expect(screen.getByRole('columnheader', { name: 'Nombre' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Email' })).toBeTruthy();
    expect(screen.getByText('No se encontraron eventos')).toBeTruthy();
  });

  it('renders one row per item, in order', () => {
    render(
      <DataTable
        columns={columns}
        rows={[{ name: 'Premios 2026' }, { name: 'Expo Norte' }]}
        rowKey={(r) => r.name}
        emptyText={MSG.noEvents}
      />,
    );
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'Premios 2026',
      'Expo Norte',
    ]);
    expect(screen.queryByText('No se encontraron eventos')).toBeNull();
  });
});

describe('FormDialog and ConfirmDialog', () => {
  it('names the dialog by its title and offers Cancelar and Guardar', async () => {
    const onSubmit = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
    const onClose = vi.fn();
    render(
      <FormDialog
        open
        title="Nuevo evento"
        error={MSG.invalidDates}
        onSubmit={onSubmit}
        onClose={onClose}
      >
        <input aria-label="Nombre" />
      </FormDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Nuevo evento' });
    expect(within(dialog).getByRole('alert').textContent).toBe('Las fechas no son válidas');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('asks a yes/no question with the confirm label', async () => {
    const onConfirm = vi.fn();
    render(
      <ConfirmDialog
        open
        title="¿Eliminar evento?"
        text="Esta acción no puede revertirse"
        confirmLabel="Eliminar"
        onConfirm={onConfirm}
        onClose={() => undefined}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: '¿Eliminar evento?' });
    expect(within(dialog).getByText('Esta acción no puede revertirse')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
