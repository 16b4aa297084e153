/**
 * A table's header row from a list of columns, so each table says only what its columns are: a label, and
 * whether its figures align right (numeric). Every header cell is scope="col" for screen readers.
 */
import type { ReactNode } from "react";

export type Column = ReactNode | { label: ReactNode; numeric: true };

const isNumeric = (column: Column): column is { label: ReactNode; numeric: true } =>
  typeof column === "object" && column !== null && "numeric" in column;

export function Head({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, i) =>
          isNumeric(column) ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns, rendered once on the server
            <th key={i} scope="col" className="n">
              {column.label}
            </th>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns, rendered once on the server
            <th key={i} scope="col">
              {column}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

/** A table that scrolls sideways inside its card when it must, and becomes a card per row on a phone ("cards"). */
export function CardTable({ className = "cards", children }: { className?: string; children: ReactNode }) {
  return (
    <div className="scroll">
      <table className={className}>{children}</table>
    </div>
  );
}

/**
 * One column of a RowsTable: `label` heads it and names its cell on a phone's card (data-label), `head` when the
 * header says more ("Started (UTC)"); a numeric column's figures align right; `when`: a time.
 */
export interface RowColumn<T> {
  label: string;
  head?: string;
  numeric?: true;
  when?: true;
  cell: (row: T) => ReactNode;
}

/** A CardTable of rows, one cell per column, its header from the same columns. */
export function RowsTable<T>({
  rows,
  rowKey,
  columns,
}: {
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  columns: readonly RowColumn<T>[];
}) {
  return (
    <CardTable>
      <Head
        columns={columns.map((c) => (c.numeric ? { label: c.head ?? c.label, numeric: true } : (c.head ?? c.label)))}
      />
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c) => (
              <td key={c.label} data-label={c.label} className={c.numeric ? "n" : c.when ? "when" : undefined}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </CardTable>
  );
}
