import { useId, useLayoutEffect, useRef, useState } from 'react';
import { defineMessages, useIntl, type IntlShape } from 'react-intl';
import type { CustomVoice } from '../../../electron/shared/custom-voices';
import { findVoice, VOICES, type Accent, type Gender, type VoiceInfo } from '../../../electron/shared/voices';
import { currentIntl, languageName } from '../lib/intl-text';
import { voicePrice } from '../lib/voice-price';
import { useStudio } from '../stores';
import { engineKind } from '../stores/voice-packs-slice';
import { ENGINE_KIND } from './EngineBadge';

/** The catalogue's languages, in its order: [code, English name]. */
const LANGUAGES = [...new Map(VOICES.map((v) => [v.language, v.language_name]))];

const ACCENT = defineMessages<Accent>({
  Northern: { id: 'components.voice.accent.northern', defaultMessage: 'Northern' },
  Southern: { id: 'components.voice.accent.southern', defaultMessage: 'Southern' },
  American: { id: 'components.voice.accent.american', defaultMessage: 'American' },
  British: { id: 'components.voice.accent.british', defaultMessage: 'British' },
  Australian: { id: 'components.voice.accent.australian', defaultMessage: 'Australian' },
  Indian: { id: 'components.voice.accent.indian', defaultMessage: 'Indian' },
  Mandarin: { id: 'components.voice.accent.mandarin', defaultMessage: 'Mandarin' },
  Standard: { id: 'components.voice.accent.standard', defaultMessage: 'Standard' },
});

const GENDER = defineMessages<Gender>({
  female: { id: 'components.voice.gender.female', defaultMessage: 'female' },
  male: { id: 'components.voice.gender.male', defaultMessage: 'male' },
});

const m = defineMessages<{
  approximated: { accent: string };
  described: { name: string; language: string; accent: string; approximated: 'yes' | 'no'; gender: string };
  yourVoices: Record<string, never>;
  yourVoiceOption: { name: string; code: string };
  yourVoiceDescribed: { name: string; code: string };
}>({
  approximated: { id: 'components.voice.approximated', defaultMessage: '{accent} (approximated)' },
  described: {
    id: 'components.voice.described',
    defaultMessage:
      '{name} · {language} · {accent} accent{approximated, select, yes { (approximated)} other {}} · {gender}',
  },
  yourVoices: { id: 'components.voice.yourVoices', defaultMessage: 'Your voices' },
  yourVoiceOption: { id: 'components.voice.yourVoiceOption', defaultMessage: '{name} · {code} · your voice' },
  yourVoiceDescribed: {
    id: 'components.voice.yourVoiceDescribed',
    defaultMessage: '{name} · your voice ({code})',
  },
});

/** The accent's name ("Northern", "miền Bắc"); an accent the catalogue does not list, as it is. */
function accentName(accent: Accent, intl: IntlShape): string {
  const message = ACCENT[accent] as (typeof ACCENT)[Accent] | undefined;
  return message ? intl.formatMessage(message) : accent;
}

/** "American (approximated)": the accent, and the note when the engine only approximates it. */
export function accentText(
  voice: Pick<VoiceInfo, 'accent' | 'accent_approximated'>,
  intl: IntlShape = currentIntl(),
): string {
  const accent = accentName(voice.accent, intl);
  return voice.accent_approximated ? intl.formatMessage(m.approximated, { accent }) : accent;
}

/** The whole choice in words: "Nova · Vietnamese · American accent (approximated) · female". */
export function describeVoice(voice: VoiceInfo, intl: IntlShape = currentIntl()): string {
  return intl.formatMessage(m.described, {
    name: voice.name,
    language: languageName(voice.language, intl, voice.language_name),
    accent: accentName(voice.accent, intl),
    approximated: voice.accent_approximated ? 'yes' : 'no',
    gender: intl.formatMessage(GENDER[voice.gender]),
  });
}

/**
 * The choices of a voice picker: the user's own voices ("Your voices") first, then every voice
 * code by language, each with what speaks it now (natural: an installed neural voice; basic:
 * eSpeak), as the Voices view offers them. For a <select> of its own (VoiceSelect is one).
 */
export function VoiceOptions({
  priced = false,
  catalogueOnly = false,
  customVoices,
}: {
  /** Each catalogue voice's price per 1000 characters in its line. */
  priced?: boolean;
  /** The catalogue alone (a custom voice's own base). */
  catalogueOnly?: boolean;
  /** The custom voices to offer (default: every one the studio sees; a project's: those it may cast). */
  customVoices?: readonly CustomVoice[] | undefined;
}) {
  const intl = useIntl();
  const engines = useStudio((s) => s.voiceEngines);
  const every = useStudio((s) => s.customVoices);
  const custom = customVoices ?? every;
  return (
    <>
      {!catalogueOnly && custom.length > 0 && (
        <optgroup label={intl.formatMessage(m.yourVoices)}>
          {custom.map((v) => (
            <option key={v.code} value={v.code}>
              {intl.formatMessage(m.yourVoiceOption, { name: v.name, code: v.code })}
            </option>
          ))}
        </optgroup>
      )}
      {LANGUAGES.map(([language, englishName]) => (
        <optgroup key={language} label={languageName(language, intl, englishName)}>
          {VOICES.filter((v) => v.language === language).map((v) => {
            const info = engines[v.voice_code];
            // Name, gender, accent, price per 1000 characters and what speaks it, between dots.
            const parts = [v.name, intl.formatMessage(GENDER[v.gender]), accentText(v, intl)];
            if (priced) parts.push(voicePrice(v.price, intl));
            if (info) parts.push(intl.formatMessage(ENGINE_KIND[engineKind(info.engine)]));
            return (
              <option key={v.voice_code} value={v.voice_code}>
                {parts.join(' · ')}
              </option>
            );
          })}
        </optgroup>
      ))}
    </>
  );
}

/**
 * A voice picker (VoiceOptions in a <select>). A code that is not listed (a voice of another
 * service kept in a project, a custom voice not loaded yet) stays selectable. With `described`,
 * the chosen line is shown whole, wrapping, in the select's place (a native <select> cuts its
 * text at its width; the select itself lies invisible over it, so the pointer, the keyboard and
 * screen readers use it as ever), and the whole choice (name, language, accent, gender) is
 * written under it (the select shows no language: that is its group's label).
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
  customVoices,
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
  /** The custom voices to offer (VoiceOptions' customVoices). */
  customVoices?: readonly CustomVoice[] | undefined;
}) {
  const intl = useIntl();
  const every = useStudio((s) => s.customVoices);
  const custom = customVoices ?? every;
  const descriptionId = useId();
  const known =
    (emptyLabel !== undefined && value === '') ||
    VOICES.some((v) => v.voice_code === value) ||
    (!catalogueOnly && custom.some((v) => v.code === value));
  const voice = findVoice(value);
  const mine = custom.find((v) => v.code === value);
  const description = voice
    ? describeVoice(voice, intl)
    : mine
      ? intl.formatMessage(m.yourVoiceDescribed, { name: mine.name, code: mine.code })
      : null;
  // The chosen option's line as the select shows it, read from the select when it may change.
  const engines = useStudio((s) => s.voiceEngines);
  const selectRef = useRef<HTMLSelectElement>(null);
  const [shown, setShown] = useState('');
  useLayoutEffect(() => {
    setShown(selectRef.current?.selectedOptions[0]?.text ?? '');
  }, [value, engines, custom, intl, priced, emptyLabel, catalogueOnly]);
  const select = (
    <select
      ref={selectRef}
      id={id}
      aria-label={label}
      aria-describedby={described && description ? descriptionId : undefined}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
      {!known && <option value={value}>{value}</option>}
      <VoiceOptions priced={priced} catalogueOnly={catalogueOnly} customVoices={custom} />
    </select>
  );
  if (!described) return select;
  return (
    <>
      <div className="voice-select">
        <span className="voice-select-text" aria-hidden="true">
          {shown}
        </span>
        {select}
      </div>
      {description && (
        <p className="hint voice-choice" id={descriptionId}>
          {description}
        </p>
      )}
    </>
  );
}
