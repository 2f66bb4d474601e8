/**
 * The one progress bar of the studio: a labelled `progressbar` whose value runs from 0 to `max`
 * (100 by default, a percentage), drawn at least `minWidth` percent wide so that a start shows.
 */
export function ProgressBar({
  label,
  value,
  max = 100,
  minWidth = 0,
}: {
  label: string;
  value: number;
  max?: number;
  minWidth?: number;
}) {
  const share = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.round(value)}
    >
      <div style={{ width: `${Math.max(minWidth, share * 100)}%` }} />
    </div>
  );
}
