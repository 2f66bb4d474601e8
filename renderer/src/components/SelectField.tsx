import type { ReactNode } from 'react';

/**
 * A labelled drop-down in a `.field`, with an optional hint below: one choice among `options`,
 * each shown as `optionLabel` says. Shared by the export forms (the Export view's audiobook and a
 * project's export), so each lists its choices once.
 */
export function SelectField<T extends string>({
  id,
  label,
  value,
  options,
  optionLabel,
  onChange,
  hint,
}: {
  id: string;
  label: ReactNode;
  value: T;
  options: readonly T[];
  optionLabel(option: T): string;
  onChange(value: T): void;
  hint?: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((option) => (
          <option key={option} value={option}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
      {hint !== undefined && <p className="hint">{hint}</p>}
    </div>
  );
}
