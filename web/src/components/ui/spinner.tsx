export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="tw-spinner" role="status">
      <span className="tw-spinner__wheel" aria-hidden="true" />
      <span className="tw-visually-hidden">{label}</span>
    </div>
  );
}
