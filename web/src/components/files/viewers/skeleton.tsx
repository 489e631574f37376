/** The loading placeholder: 3 lines unless told (spec chart-data §2a). */
export function Skeleton({ lines = 3 }: { lines?: number }) {
  return (
    <div className="tw-skeleton" role="status" aria-label="Loading file">
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="tw-skeleton__line" />
      ))}
    </div>
  );
}
