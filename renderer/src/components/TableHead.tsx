import type { ReactNode } from 'react';

/** A column of a data table: its heading, and how the heading cell is drawn. */
export interface TableColumn {
  label: ReactNode;
  /** `num` for a column of figures; `wide-only` for one hidden in a narrow window. */
  className?: string;
  /** Read by a screen reader only (a column of buttons). */
  hidden?: boolean;
}

/**
 * The head of a `table.data`: one heading cell per column, `false` for a column not shown. Shared
 * by the tables of the views (API keys and ledger, History), so each lists its columns once.
 */
export function TableHead({ columns }: { columns: readonly (TableColumn | false)[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, i) =>
          column === false ? null : (
            <th key={i} className={column.className}>
              {column.hidden ? <span className="visually-hidden">{column.label}</span> : column.label}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
