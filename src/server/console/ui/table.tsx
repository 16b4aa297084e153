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
