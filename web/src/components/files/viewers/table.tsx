/** A sheet or csv as a table: the first row is the header. */
export function DataTable({ rows, label }: { rows: readonly (readonly unknown[])[]; label: string }) {
  const [head = [], ...body] = rows;
  const width = Math.max(0, ...rows.map((r) => r.length));
  const cells = (row: readonly unknown[]) =>
    Array.from({ length: width }, (_, i) => (row[i] == null ? '' : row[i] instanceof Date ? (row[i] as Date).toLocaleDateString() : String(row[i])));
  return (
    <div className="tw-file-table" tabIndex={0} role="region" aria-label={label}>
      <table>
        <thead>
          <tr>
            {cells(head).map((cell, i) => (
              <th key={i} scope="col">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body.map((row, r) => (
            <tr key={r}>
              {cells(row).map((cell, i) => (
                <td key={i}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
