import { VOICES } from '../../../electron/shared/voices';
import { useStudio } from '../stores';
import { engineKind } from '../stores/voice-packs-slice';

const LANGUAGES = [...new Set(VOICES.map((v) => v.language_name))];

/**
 * The choices of a voice picker: the user's own voices ("Your voices") first, then every voice
 * code by language, each with what speaks it now (natural: an installed neural voice; basic:
 * eSpeak), as the Voices view offers them. For a <select> of its own (VoiceSelect is one).
 */
export function VoiceOptions({
  priced = false,
  catalogueOnly = false,
}: {
  /** Each catalogue voice's price per 1000 characters in its line. */
  priced?: boolean;
  /** The catalogue alone (a custom voice's own base). */
  catalogueOnly?: boolean;
}) {
  const engines = useStudio((s) => s.voiceEngines);
  const custom = useStudio((s) => s.customVoices);
  return (
    <>
      {!catalogueOnly && custom.length > 0 && (
        <optgroup label="Your voices">
          {custom.map((v) => (
            <option key={v.code} value={v.code}>
              {v.name} · {v.code} · your voice
            </option>
          ))}
        </optgroup>
      )}
      {LANGUAGES.map((language) => (
        <optgroup key={language} label={language}>
          {VOICES.filter((v) => v.language_name === language).map((v) => (
            <option key={v.voice_code} value={v.voice_code}>
              {v.name} · {v.gender} · {v.accent}
              {priced ? ` · ${v.price}/1k` : ''}
              {engines[v.voice_code] ? ` · ${engineKind(engines[v.voice_code]!.engine)}` : ''}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}

/**
 * A voice picker (VoiceOptions in a <select>). A code that is not listed (a voice of another
 * service kept in a project, a custom voice not loaded yet) stays selectable.
 */
export function VoiceSelect({
  id,
  value,
  onChange,
  label,
  disabled,
  priced = false,
  emptyLabel,
  catalogueOnly = false,
}: {
  id?: string;
  value: string;
  onChange(voiceCode: string): void;
  /** An aria-label when no <label> points at it. */
  label?: string;
  disabled?: boolean;
  priced?: boolean;
  /** A first choice with the value '' (e.g. "The narrator"). */
  emptyLabel?: string;
  catalogueOnly?: boolean;
}) {
  const custom = useStudio((s) => s.customVoices);
  const known =
    (emptyLabel !== undefined && value === '') ||
    VOICES.some((v) => v.voice_code === value) ||
    (!catalogueOnly && custom.some((v) => v.code === value));
  return (
    <select
      id={id}
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
      {!known && <option value={value}>{value}</option>}
      <VoiceOptions priced={priced} catalogueOnly={catalogueOnly} />
    </select>
  );
}
