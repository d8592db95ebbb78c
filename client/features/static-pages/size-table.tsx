import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A real data table: caption, column headers with scope, first cell of each row as its row header. */
export function SizeTable({
  caption,
  columns,
  rows,
  className,
}: {
  caption: ReactNode;
  columns: string[];
  rows: string[][];
  className?: string;
}) {
  return (
    <div className={cn('border border-hairline bg-surface', className)}>
      <table className="w-full border-collapse text-left text-sm sm:text-base">
        <caption className="border-b border-hairline px-4 py-3 text-left text-sm font-semibold sm:text-base">
          {caption}
        </caption>
        <thead>
          <tr className="border-b border-hairline-strong">
            {columns.map((c) => (
              <th
                key={c}
                scope="col"
                className="type-eyebrow px-2 py-3 text-muted sm:px-4"
              >
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([head, ...cells]) => (
            <tr key={head} className="border-b border-hairline last:border-b-0">
              <th scope="row" className="px-2 py-3 font-semibold sm:px-4">
                {head}
              </th>
              {cells.map((c, i) => (
                <td key={i} className="px-2 py-3 tabular-nums sm:px-4">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
