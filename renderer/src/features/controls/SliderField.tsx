import { useId, useState } from 'react';
import { useIntl } from 'react-intl';

interface SliderFieldProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  /** Called with a value the caller clamps into range. */
  onChange(value: number): void;
  format?: (value: number) => string;
}

/** A slider and a number box for the same value; the box commits on blur or Enter. */
export function SliderField({ label, value, min, max, step, onChange, format = String }: SliderFieldProps) {
  const id = useId();
  const intl = useIntl();
  // While the box is being edited it shows what is typed; otherwise always the current value.
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft === null) return;
    const parsed = Number(draft);
    setDraft(null);
    if (draft.trim() !== '' && Number.isFinite(parsed)) {
      // Values outside the API's rules cannot be entered: clamp and round to the step here.
      const stepped = Math.round(Math.min(max, Math.max(min, parsed)) / step) * step;
      const clean = Number(stepped.toFixed(6));
      onChange(clean);
    }
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="slider-row">
        <input
          id={id}
          type="range"
          min={min}
          max={max}
          step={step}
          value={value}
          aria-valuetext={format(value)}
          onChange={(e) => onChange(Number(e.target.value))}
        />
        <input
          type="number"
          aria-label={intl.formatMessage(
            { id: 'controls.slider.value', defaultMessage: '{label} value' },
            { label },
          )}
          min={min}
          max={max}
          step={step}
          value={draft ?? format(value)}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            commit();
            // Ctrl/Cmd+Enter goes on to the view's shortcut (lib/shortcuts.ts), with the value
            // typed committed first; a plain Enter commits only, and inside a form does not submit.
            if (!(e.ctrlKey || e.metaKey)) e.preventDefault();
          }}
        />
      </div>
    </div>
  );
}
