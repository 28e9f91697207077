import type { ReactNode } from 'react';

export interface PlainColumn<Row> {
  header: string;
  render(row: Row, index: number): ReactNode;
  /** Hidden on phones when the column is secondary. */
  hideOnPhone?: boolean;
  width?: number | string;
  align?: 'left' | 'center';
}

/**
 * A table as the product's DataTable draws it (outlined, small, wrapping cells so nothing scrolls
 * sideways at 390 px, a row of text when empty), in plain elements.
 */
export function PlainTable<Row>({
  columns,
  rows,
  rowKey,
  emptyText,
  label,
}: {
  columns: PlainColumn<Row>[];
  rows: Row[];
  rowKey(row: Row): string;
  emptyText: string;
  label: string;
}) {
  const cellClass = (column: PlainColumn<Row>) =>
    [column.hideOnPhone ? 'plain-not-phone' : '', column.align === 'center' ? 'plain-center' : '']
      .filter(Boolean)
      .join(' ') || undefined;
  return (
    <div className="plain-table-frame">
      <table className="plain-table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={cellClass(column)}
                style={column.width === undefined ? undefined : { width: column.width }}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length}>
                <p className="plain-table-empty">{emptyText}</p>
              </td>
            </tr>
          ) : (
            rows.map((row, index) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.header} className={cellClass(column)}>
                    {column.render(row, index)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
