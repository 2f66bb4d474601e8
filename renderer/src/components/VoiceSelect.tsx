import { VOICES } from '../../../electron/shared/voices';
import { useStudio } from '../stores';
import { engineKind } from '../stores/voice-packs-slice';

const LANGUAGES = [...new Set(VOICES.map((v) => v.language_name))];

/**
 * A voice picker: every voice code by language, each with what speaks it now (natural: an
 * installed neural voice; basic: eSpeak), as the Voices view offers them. A code that is not in
 * the catalogue (a voice of another service kept in a project) stays selectable.
 */
export function VoiceSelect({
  id,
  value,
  onChange,
  label,
  disabled,
}: {
  id?: string;
  value: string;
  onChange(voiceCode: string): void;
  /** An aria-label when no <label> points at it. */
  label?: string;
  disabled?: boolean;
}) {
  const engines = useStudio((s) => s.voiceEngines);
  const known = VOICES.some((v) => v.voice_code === value);
  return (
    <select
      id={id}
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      {!known && <option value={value}>{value}</option>}
      {LANGUAGES.map((language) => (
        <optgroup key={language} label={language}>
          {VOICES.filter((v) => v.language_name === language).map((v) => (
            <option key={v.voice_code} value={v.voice_code}>
              {v.name} · {v.gender} · {v.accent}
              {engines[v.voice_code] ? ` · ${engineKind(engines[v.voice_code]!.engine)}` : ''}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}
