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
    <div className={cn('border-2 border-ink', className)}>
      <table className="w-full border-collapse text-left text-sm sm:text-base">
        <caption className="bg-ink px-4 py-3 text-left text-xs font-bold tracking-widest text-paper uppercase sm:text-sm">
          {caption}
        </caption>
        <thead>
          <tr className="border-b-2 border-ink bg-bone">
            {columns.map((c) => (
              <th
                key={c}
                scope="col"
                className="px-2 py-3 text-xs font-bold tracking-wider uppercase sm:px-4"
              >
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([head, ...cells]) => (
            <tr key={head} className="border-b border-black/10 last:border-b-0 even:bg-black/[0.03]">
              <th scope="row" className="px-2 py-3 font-display text-lg sm:px-4 font-normal uppercase">
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
