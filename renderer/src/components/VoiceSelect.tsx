import { useId } from 'react';
import { findVoice, VOICES, type VoiceInfo } from '../../../electron/shared/voices';
import { useStudio } from '../stores';
import { engineKind } from '../stores/voice-packs-slice';

const LANGUAGES = [...new Set(VOICES.map((v) => v.language_name))];

/** "American (approximated)": the accent, and the note when the engine only approximates it. */
export function accentText(voice: Pick<VoiceInfo, 'accent' | 'accent_approximated'>): string {
  return voice.accent_approximated ? `${voice.accent} (approximated)` : voice.accent;
}

/** The whole choice in words: "Nova · Vietnamese · American accent (approximated) · female". */
export function describeVoice(voice: VoiceInfo): string {
  const accent = `${voice.accent} accent${voice.accent_approximated ? ' (approximated)' : ''}`;
  return [voice.name, voice.language_name, accent, voice.gender].join(' · ');
}

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
              {v.name} · {v.gender} · {accentText(v)}
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
 * service kept in a project, a custom voice not loaded yet) stays selectable. With `described`,
 * the whole choice (name, language, accent, gender) is written under it, wrapping, since a
 * narrow <select> cuts its text off (and shows no language: that is its group's label).
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
  described = false,
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
  described?: boolean;
}) {
  const custom = useStudio((s) => s.customVoices);
  const descriptionId = useId();
  const known =
    (emptyLabel !== undefined && value === '') ||
    VOICES.some((v) => v.voice_code === value) ||
    (!catalogueOnly && custom.some((v) => v.code === value));
  const voice = findVoice(value);
  const mine = custom.find((v) => v.code === value);
  const description = voice ? describeVoice(voice) : mine ? `${mine.name} · your voice (${mine.code})` : null;
  const select = (
    <select
      id={id}
      aria-label={label}
      aria-describedby={described && description ? descriptionId : undefined}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
      {!known && <option value={value}>{value}</option>}
      <VoiceOptions priced={priced} catalogueOnly={catalogueOnly} />
    </select>
  );
  if (!described) return select;
  return (
    <>
      {select}
      {description && (
        <p className="hint voice-choice" id={descriptionId}>
          {description}
        </p>
      )}
    </>
  );
}
