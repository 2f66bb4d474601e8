import { useEffect, useId, useRef, useState } from 'react';
import { createIntl, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import {
  CUSTOM_VOICE_CODE_PATTERN,
  DEFAULT_CUSTOM_PROSODY,
  MAX_BLEND_PARTS,
  MAX_CUSTOM_LEXICON_ENTRIES,
  MAX_CUSTOM_VOICE_NAME_CHARS,
  type CustomVoice,
  type CustomVoiceInput,
} from '../../../../electron/shared/custom-voices';
import {
  MAX_MATCH_CHARS,
  MAX_REPLACEMENT_CHARS,
  type LexiconKind,
} from '../../../../electron/shared/lexicon';
import type { VoicePackInfo } from '../../../../electron/shared/voice-packs';
import { findVoice, VOICES } from '../../../../electron/shared/voices';
import { VoiceSelect } from '../../components/VoiceSelect';
import { errorMessage } from '../../lib/api-client';
import { blendShares, catalogueVoiceOf } from '../../lib/voice-codes';
import { useStudio } from '../../stores';
import { SliderField } from '../controls/SliderField';
import { BusyButton } from '../../components/BusyButton';

type BaseKind = CustomVoiceInput['base']['kind'];

/** The form's fields: every base kind's choice is kept while another kind is shown. */
export interface CustomVoiceDraft {
  name: string;
  code: string;
  kind: BaseKind;
  /** Base `code`: a catalogue voice code. */
  baseCode: string;
  /** Base `pack`: the pack and its speaker ('' for a single-speaker pack). */
  packId: string;
  speaker: string;
  /** Base `kokoro_blend`: Kokoro voice names and weights, as typed. */
  parts: { voice: string; weight: string }[];
  /** The catalogue voice behind a pack or a blend. */
  fallback: string;
  speed: number;
  pitch: number;
  volume: number;
  lexicon: { match: string; kind: LexiconKind; replacement: string }[];
  note: string;
}

/** The form of a new voice (over `voiceCode` when it is a catalogue code) or of a saved one. */
export function draftOf(voice: CustomVoice | undefined, voiceCode: string): CustomVoiceDraft {
  const catalogue = findVoice(voiceCode) ? voiceCode : VOICES[0]!.voice_code;
  const base = voice?.base;
  return {
    name: voice?.name ?? '',
    code: voice?.code ?? '',
    kind: base?.kind ?? 'code',
    baseCode: base?.kind === 'code' ? base.voice_code : catalogue,
    packId: base?.kind === 'pack' ? base.pack_id : '',
    speaker: base?.kind === 'pack' ? (base.speaker ?? '') : '',
    parts:
      base?.kind === 'kokoro_blend'
        ? base.parts.map((p) => ({ voice: p.voice, weight: String(p.weight) }))
        : [],
    fallback: voice?.voice_code ?? catalogue,
    speed: voice?.prosody.speed ?? DEFAULT_CUSTOM_PROSODY.speed,
    pitch: voice?.prosody.pitch ?? DEFAULT_CUSTOM_PROSODY.pitch,
    volume: voice?.prosody.volume ?? DEFAULT_CUSTOM_PROSODY.volume,
    lexicon: (voice?.lexicon ?? []).map((e) => ({
      match: e.match,
      kind: e.kind,
      replacement: e.replacement,
    })),
    note: voice?.note ?? '',
  };
}

const CODE_RE = new RegExp(CUSTOM_VOICE_CODE_PATTERN);

/** English messages, for callers without the interface's (tests). */
const ENGLISH = createIntl({ locale: 'en', defaultLocale: 'en' });

/** What is wrong with a custom voice's code as typed, or null. */
export function codeProblem(
  code: string,
  taken: readonly string[],
  intl: IntlShape = ENGLISH,
): string | null {
  if (code === '')
    return intl.formatMessage({
      id: 'voices.form.code.missing',
      defaultMessage: 'Give the voice a code: what the API and projects call it.',
    });
  if (!CODE_RE.test(code))
    return intl.formatMessage({
      id: 'voices.form.code.invalid',
      defaultMessage:
        'A code is 3 to 64 characters: lower-case letters, digits, _ and -, starting with a letter.',
    });
  if (findVoice(code))
    return intl.formatMessage(
      {
        id: 'voices.form.code.catalogue',
        defaultMessage: "{code} is a catalogue voice's code: choose another.",
      },
      { code },
    );
  if (taken.includes(code))
    return intl.formatMessage(
      { id: 'voices.form.code.taken', defaultMessage: 'You already have a voice with the code {code}.' },
      { code },
    );
  return null;
}

/** The request body of a draft, or the first problem that stops it being sent. */
export function inputOf(
  draft: CustomVoiceDraft,
  intl: IntlShape = ENGLISH,
): { input: CustomVoiceInput } | { problem: string } {
  if (draft.name.trim() === '')
    return {
      problem: intl.formatMessage({
        id: 'voices.form.name.missing',
        defaultMessage: 'Give the voice a name.',
      }),
    };
  let base: CustomVoiceInput['base'];
  if (draft.kind === 'code') base = { kind: 'code', voice_code: draft.baseCode };
  else if (draft.kind === 'pack') {
    if (draft.packId === '')
      return {
        problem: intl.formatMessage({
          id: 'voices.form.pack.missing',
          defaultMessage: 'Choose an installed voice pack, or another base.',
        }),
      };
    base = { kind: 'pack', pack_id: draft.packId, ...(draft.speaker ? { speaker: draft.speaker } : {}) };
  } else {
    const parts = draft.parts.map((p) => ({ voice: p.voice, weight: Number(p.weight) }));
    if (parts.length === 0)
      return {
        problem: intl.formatMessage({
          id: 'voices.form.blend.empty',
          defaultMessage: 'Add at least one Kokoro voice to the blend.',
        }),
      };
    const bad = parts.findIndex((p) => !(p.weight > 0 && p.weight <= 100));
    if (bad >= 0)
      return {
        problem: intl.formatMessage(
          {
            id: 'voices.form.blend.weight',
            defaultMessage: 'The weight of blend part {n} must be above 0 and at most 100.',
          },
          { n: bad + 1 },
        ),
      };
    base = { kind: 'kokoro_blend', parts };
  }
  const lexicon = draft.lexicon.filter((e) => e.match.trim() !== '' || e.replacement.trim() !== '');
  const half = lexicon.findIndex((e) => e.match.trim() === '' || e.replacement.trim() === '');
  if (half >= 0)
    return {
      problem: intl.formatMessage(
        {
          id: 'voices.form.pronunciation.half',
          defaultMessage: 'Pronunciation {n} needs both the word and what to say.',
        },
        { n: half + 1 },
      ),
    };
  return {
    input: {
      code: draft.code,
      name: draft.name.trim(),
      base,
      ...(draft.kind === 'code' ? {} : { voice_code: draft.fallback }),
      prosody: { speed: draft.speed, pitch: draft.pitch, volume: draft.volume },
      lexicon: lexicon.map((e) => ({
        match: e.match.trim(),
        kind: e.kind,
        replacement: e.replacement.trim(),
      })),
      note: draft.note,
    },
  };
}

/** Installed packs' speakers as choices: a Piper pack's speakers (or the pack alone), a Kokoro pack's voices. */
function speakerChoices(pack: VoicePackInfo, intl: IntlShape): { value: string; label: string }[] {
  if (pack.num_speakers <= 1 && pack.family === 'piper')
    return [
      {
        value: '',
        label: intl.formatMessage({ id: 'voices.form.speaker.single', defaultMessage: 'its one speaker' }),
      },
    ];
  return pack.speakers.map((name, i) => ({ value: name, label: pack.speaker_labels[i] ?? name }));
}

const twoDecimals = (v: number) => v.toFixed(2);

/**
 * Creates or edits one custom voice: name and code (checked as typed; the server's answer, such
 * as a code already taken, shown once), its base (a catalogue voice, an installed pack's
 * speaker, or a weighted blend of Kokoro voices), speed, pitch and volume, its own
 * pronunciations, and a note. Escape cancels; the name field has the focus when it opens.
 */
export function CustomVoiceForm({
  editing,
  onSaved,
  onCancel,
}: {
  /** The voice being edited; a new voice when absent. */
  editing?: CustomVoice;
  onSaved(voice: CustomVoice): void;
  onCancel(): void;
}) {
  const id = useId();
  const intl = useIntl();
  const studioVoice = useStudio((s) => s.options.voice_code);
  const customVoices = useStudio((s) => s.customVoices);
  const packs = useStudio((s) => s.voicePacks);
  const save = useStudio((s) => s.saveCustomVoice);
  // A new voice starts over the studio's voice (a custom one's catalogue voice).
  const [draft, setDraft] = useState<CustomVoiceDraft>(() =>
    draftOf(editing, catalogueVoiceOf(studioVoice, customVoices)?.voice_code ?? studioVoice),
  );
  const [codeTouched, setCodeTouched] = useState(false);
  /** One message for the whole form: the server's answer or what stops the draft being sent. */
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);

  useEffect(() => nameInput.current?.focus(), []);

  const installed = packs.filter((p) => p.state === 'installed');
  const kokoroVoices = [
    ...new Set(installed.filter((p) => p.family === 'kokoro').flatMap((p) => p.speakers)),
  ].sort();
  const pack = installed.find((p) => p.id === draft.packId);
  const taken = customVoices.filter((v) => v.code !== editing?.code).map((v) => v.code);
  const codeError = editing ? null : codeProblem(draft.code, taken, intl);
  const shares = blendShares(draft.parts.map((p) => Number(p.weight)));

  const update = (change: Partial<CustomVoiceDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    // A server answer is about what was sent: once the form changes, it no longer applies.
    setError(null);
  };
  const choosePack = (packId: string) => {
    const chosen = installed.find((p) => p.id === packId);
    const language = chosen?.languages[0];
    const fallback =
      findVoice(draft.fallback)?.language === language
        ? draft.fallback
        : (VOICES.find((v) => v.language === language)?.voice_code ?? draft.fallback);
    update({ packId, speaker: chosen ? (speakerChoices(chosen, intl)[0]?.value ?? '') : '', fallback });
  };

  const submit = async () => {
    setCodeTouched(true);
    if (codeError) return setError(codeError);
    const built = inputOf(draft, intl);
    if ('problem' in built) return setError(built.problem);
    setSaving(true);
    try {
      onSaved(await save(built.input, editing?.code));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  const setPart = (index: number, change: Partial<CustomVoiceDraft['parts'][number]>) =>
    update({ parts: draft.parts.map((p, i) => (i === index ? { ...p, ...change } : p)) });
  const setEntry = (index: number, change: Partial<CustomVoiceDraft['lexicon'][number]>) =>
    update({ lexicon: draft.lexicon.map((e, i) => (i === index ? { ...e, ...change } : e)) });

  return (
    <form
      className="custom-voice-form"
      aria-label={
        editing
          ? intl.formatMessage(
              { id: 'voices.form.editLabel', defaultMessage: 'Edit voice {name}' },
              { name: editing.name },
            )
          : intl.formatMessage({ id: 'voices.form.newLabel', defaultMessage: 'New voice' })
      }
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        // Enter in a field submits even while saving (the button is aria-disabled, not disabled).
        if (!saving) void submit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <div className="custom-voice-grid">
        <div className="field">
          <label htmlFor={`${id}-name`}>
            <FormattedMessage id="voices.form.name" defaultMessage="Name" />
          </label>
          <input
            id={`${id}-name`}
            ref={nameInput}
            type="text"
            maxLength={MAX_CUSTOM_VOICE_NAME_CHARS}
            placeholder={intl.formatMessage({
              id: 'voices.form.name.placeholder',
              defaultMessage: 'e.g. Cô Lan, slow and warm',
            })}
            value={draft.name}
            onChange={(e) => update({ name: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-code`}>
            <FormattedMessage id="voices.form.code" defaultMessage="Code" />
          </label>
          <input
            id={`${id}-code`}
            type="text"
            spellCheck={false}
            autoCapitalize="off"
            placeholder={intl.formatMessage({
              id: 'voices.form.code.placeholder',
              defaultMessage: 'e.g. co_lan',
            })}
            value={draft.code}
            disabled={editing !== undefined}
            aria-invalid={codeTouched && codeError !== null}
            aria-describedby={`${id}-code-hint`}
            onChange={(e) => {
              setCodeTouched(true);
              update({ code: e.target.value });
            }}
          />
          <p className={codeTouched && codeError ? 'hint invalid' : 'hint'} id={`${id}-code-hint`}>
            {editing
              ? intl.formatMessage({
                  id: 'voices.form.code.kept',
                  defaultMessage: 'A saved voice keeps its code.',
                })
              : codeTouched && codeError
                ? codeError
                : intl.formatMessage({
                    id: 'voices.form.code.hint',
                    defaultMessage: 'Lower-case letters, digits, _ and -; used as voice_code in the API.',
                  })}
          </p>
        </div>
      </div>

      <fieldset className="field custom-voice-base">
        <legend className="field-label">
          <FormattedMessage id="voices.form.base" defaultMessage="Base voice" />
        </legend>
        <div
          className="segmented"
          role="radiogroup"
          aria-label={intl.formatMessage({
            id: 'voices.form.base.kind',
            defaultMessage: 'Kind of base voice',
          })}
        >
          {(
            [
              ['code', intl.formatMessage({ id: 'voices.form.base.catalogue', defaultMessage: 'Catalogue' })],
              ['pack', intl.formatMessage({ id: 'voices.form.base.pack', defaultMessage: 'Installed pack' })],
              [
                'kokoro_blend',
                intl.formatMessage({ id: 'voices.form.base.blend', defaultMessage: 'Kokoro blend' }),
              ],
            ] as const
          ).map(([kind, label]) => (
            <label key={kind}>
              <input
                type="radio"
                name={`${id}-kind`}
                checked={draft.kind === kind}
                onChange={() => update({ kind })}
              />
              {label}
            </label>
          ))}
        </div>
        {draft.kind === 'code' && (
          <div className="field">
            <label htmlFor={`${id}-base-code`}>
              <FormattedMessage id="voices.form.base.catalogueVoice" defaultMessage="Catalogue voice" />
            </label>
            <VoiceSelect
              id={`${id}-base-code`}
              catalogueOnly
              value={draft.baseCode}
              onChange={(baseCode) => update({ baseCode })}
            />
          </div>
        )}
        {draft.kind === 'pack' &&
          (installed.length === 0 ? (
            <p className="hint">
              <FormattedMessage
                id="voices.form.pack.none"
                defaultMessage="No voice pack is installed: install one in the Voice library first."
              />
            </p>
          ) : (
            <div className="custom-voice-grid">
              <div className="field">
                <label htmlFor={`${id}-pack`}>
                  <FormattedMessage id="voices.form.pack" defaultMessage="Pack" />
                </label>
                <select id={`${id}-pack`} value={draft.packId} onChange={(e) => choosePack(e.target.value)}>
                  <option value="">
                    {intl.formatMessage({ id: 'voices.form.pack.choose', defaultMessage: 'Choose a pack…' })}
                  </option>
                  {installed.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.id} · {p.family}
                    </option>
                  ))}
                </select>
              </div>
              {pack && (
                <div className="field">
                  <label htmlFor={`${id}-speaker`}>
                    {pack.family === 'kokoro'
                      ? intl.formatMessage({ id: 'voices.form.pack.voice', defaultMessage: 'Voice' })
                      : intl.formatMessage({ id: 'voices.form.pack.speaker', defaultMessage: 'Speaker' })}
                  </label>
                  <select
                    id={`${id}-speaker`}
                    value={draft.speaker}
                    onChange={(e) => update({ speaker: e.target.value })}
                  >
                    {speakerChoices(pack, intl).map((s) => (
                      <option key={s.value} value={s.value}>
                        {s.label}
                      </option>
                    ))}
                  </select>
                </div>
              )}
            </div>
          ))}
        {draft.kind === 'kokoro_blend' &&
          (kokoroVoices.length === 0 ? (
            <p className="hint">
              <FormattedMessage
                id="voices.form.blend.none"
                defaultMessage="No Kokoro pack is installed: install one in the Voice library to blend its voices."
              />
            </p>
          ) : (
            <div className="blend-parts">
              <ul
                aria-label={intl.formatMessage({
                  id: 'voices.form.blend.parts',
                  defaultMessage: 'Blend parts',
                })}
              >
                {draft.parts.map((part, i) => (
                  <li key={i} className="row">
                    <label className="visually-hidden" htmlFor={`${id}-part-${i}`}>
                      <FormattedMessage
                        id="voices.form.blend.voice"
                        defaultMessage="Blend voice {n}"
                        values={{ n: i + 1 }}
                      />
                    </label>
                    <select
                      id={`${id}-part-${i}`}
                      value={part.voice}
                      onChange={(e) => setPart(i, { voice: e.target.value })}
                    >
                      {kokoroVoices.map((v) => (
                        <option key={v}>{v}</option>
                      ))}
                    </select>
                    <label className="visually-hidden" htmlFor={`${id}-weight-${i}`}>
                      <FormattedMessage
                        id="voices.form.blend.weightLabel"
                        defaultMessage="Weight of blend voice {n}"
                        values={{ n: i + 1 }}
                      />
                    </label>
                    <input
                      id={`${id}-weight-${i}`}
                      type="number"
                      min={0}
                      max={100}
                      step="any"
                      className="blend-weight"
                      value={part.weight}
                      onChange={(e) => setPart(i, { weight: e.target.value })}
                    />
                    <span
                      className="muted small blend-share"
                      aria-label={intl.formatMessage(
                        { id: 'voices.form.blend.share', defaultMessage: 'Share of blend voice {n}' },
                        { n: i + 1 },
                      )}
                    >
                      {Math.round(shares[i]!)} %
                    </span>
                    <button
                      type="button"
                      aria-label={intl.formatMessage(
                        { id: 'voices.form.blend.remove', defaultMessage: 'Remove blend voice {n}' },
                        { n: i + 1 },
                      )}
                      onClick={() => update({ parts: draft.parts.filter((_, j) => j !== i) })}
                    >
                      <FormattedMessage id="common.remove" defaultMessage="Remove" />
                    </button>
                  </li>
                ))}
              </ul>
              <button
                type="button"
                disabled={draft.parts.length >= MAX_BLEND_PARTS}
                onClick={() => update({ parts: [...draft.parts, { voice: kokoroVoices[0]!, weight: '1' }] })}
              >
                <FormattedMessage id="voices.form.blend.add" defaultMessage="Add a voice to the blend" />
              </button>
            </div>
          ))}
        {draft.kind !== 'code' && (
          <div className="field">
            <label htmlFor={`${id}-fallback`}>
              <FormattedMessage id="voices.form.fallback" defaultMessage="Catalogue voice behind it" />
            </label>
            <VoiceSelect
              id={`${id}-fallback`}
              catalogueOnly
              value={draft.fallback}
              onChange={(fallback) => update({ fallback })}
            />
            <p className="hint">
              <FormattedMessage
                id="voices.form.fallback.hint"
                defaultMessage="Of the same language: its price and text preparation apply, and it speaks when the pack is not installed."
              />
            </p>
          </div>
        )}
      </fieldset>

      <div className="custom-voice-grid three">
        <SliderField
          label={intl.formatMessage({ id: 'voices.form.speed', defaultMessage: 'Speed' })}
          value={draft.speed}
          min={0.5}
          max={2}
          step={0.05}
          format={twoDecimals}
          onChange={(speed) => update({ speed })}
        />
        <SliderField
          label={intl.formatMessage({ id: 'voices.form.pitch', defaultMessage: 'Pitch' })}
          value={draft.pitch}
          min={0.5}
          max={2}
          step={0.05}
          format={twoDecimals}
          onChange={(pitch) => update({ pitch })}
        />
        <SliderField
          label={intl.formatMessage({ id: 'voices.form.volume', defaultMessage: 'Volume' })}
          value={draft.volume}
          min={50}
          max={150}
          step={1}
          onChange={(volume) => update({ volume })}
        />
      </div>
      <p className="hint slider-hint">
        <FormattedMessage
          id="voices.form.prosody.hint"
          defaultMessage="Speed and pitch multiply a request’s own; volume is a percentage of it."
        />
      </p>

      <fieldset className="field custom-voice-lexicon">
        <legend className="field-label">
          <FormattedMessage id="voices.form.lexicon" defaultMessage="Pronunciations of this voice" />
        </legend>
        {draft.lexicon.length === 0 && (
          <p className="hint">
            <FormattedMessage
              id="voices.form.lexicon.none"
              defaultMessage="None: the shared lexicon still applies."
            />
          </p>
        )}
        <ul
          aria-label={intl.formatMessage({
            id: 'voices.form.lexicon.list',
            defaultMessage: 'Pronunciations',
          })}
        >
          {draft.lexicon.map((entry, i) => (
            <li key={i} className="row">
              <label className="visually-hidden" htmlFor={`${id}-match-${i}`}>
                <FormattedMessage
                  id="voices.form.lexicon.word"
                  defaultMessage="Word {n}"
                  values={{ n: i + 1 }}
                />
              </label>
              <input
                id={`${id}-match-${i}`}
                type="text"
                maxLength={MAX_MATCH_CHARS}
                placeholder={intl.formatMessage({
                  id: 'voices.form.lexicon.word.placeholder',
                  defaultMessage: 'Word or phrase',
                })}
                value={entry.match}
                onChange={(e) => setEntry(i, { match: e.target.value })}
              />
              <label className="visually-hidden" htmlFor={`${id}-entry-kind-${i}`}>
                <FormattedMessage
                  id="voices.form.lexicon.kind"
                  defaultMessage="Kind of pronunciation {n}"
                  values={{ n: i + 1 }}
                />
              </label>
              <select
                id={`${id}-entry-kind-${i}`}
                value={entry.kind}
                onChange={(e) => setEntry(i, { kind: e.target.value as LexiconKind })}
              >
                <option value="respell">
                  {intl.formatMessage({ id: 'voices.form.lexicon.respelling', defaultMessage: 'Respelling' })}
                </option>
                <option value="ipa">IPA</option>
                <option value="abbreviation">
                  {intl.formatMessage({ id: 'lexicon.abbreviation', defaultMessage: 'Abbreviation' })}
                </option>
                <option value="unit">
                  {intl.formatMessage({ id: 'lexicon.unit', defaultMessage: 'Unit' })}
                </option>
              </select>
              <label className="visually-hidden" htmlFor={`${id}-replacement-${i}`}>
                <FormattedMessage
                  id="voices.form.lexicon.say"
                  defaultMessage="Say word {n} as"
                  values={{ n: i + 1 }}
                />
              </label>
              <input
                id={`${id}-replacement-${i}`}
                type="text"
                maxLength={MAX_REPLACEMENT_CHARS}
                placeholder={
                  entry.kind === 'ipa'
                    ? intl.formatMessage(
                        { id: 'voices.form.lexicon.example', defaultMessage: 'e.g. {example}' },
                        { example: 'ʃɪˈvɔːn' },
                      )
                    : intl.formatMessage({
                        id: 'voices.form.lexicon.respelling.placeholder',
                        defaultMessage: 'e.g. shiv awn',
                      })
                }
                lang={entry.kind === 'ipa' ? 'und-fonipa' : undefined}
                spellCheck={false}
                value={entry.replacement}
                onChange={(e) => setEntry(i, { replacement: e.target.value })}
              />
              <button
                type="button"
                aria-label={intl.formatMessage(
                  { id: 'voices.form.lexicon.remove', defaultMessage: 'Remove pronunciation {n}' },
                  { n: i + 1 },
                )}
                onClick={() => update({ lexicon: draft.lexicon.filter((_, j) => j !== i) })}
              >
                <FormattedMessage id="common.remove" defaultMessage="Remove" />
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          disabled={draft.lexicon.length >= MAX_CUSTOM_LEXICON_ENTRIES}
          onClick={() =>
            update({ lexicon: [...draft.lexicon, { match: '', kind: 'respell', replacement: '' }] })
          }
        >
          <FormattedMessage id="voices.form.lexicon.add" defaultMessage="Add a pronunciation" />
        </button>
      </fieldset>

      <div className="field">
        <label htmlFor={`${id}-note`}>
          <FormattedMessage id="voices.form.note" defaultMessage="Note (optional)" />
        </label>
        <input
          id={`${id}-note`}
          type="text"
          maxLength={500}
          value={draft.note}
          onChange={(e) => update({ note: e.target.value })}
        />
      </div>

      <p className="error" role="alert" aria-live="assertive">
        {error}
      </p>
      <div className="row">
        <span className="spacer" />
        <button type="button" onClick={onCancel}>
          <FormattedMessage id="common.cancel" defaultMessage="Cancel" />
        </button>
        <BusyButton type="submit" className="primary" busy={saving}>
          {saving
            ? intl.formatMessage({ id: 'common.saving', defaultMessage: 'Saving…' })
            : editing
              ? intl.formatMessage({ id: 'common.save', defaultMessage: 'Save' })
              : intl.formatMessage({ id: 'voices.custom.create', defaultMessage: 'Create voice' })}
        </BusyButton>
      </div>
    </form>
  );
}
