/**
 * The custom voice form's draft: what its fields hold, the draft of a new or saved voice, the
 * code's check as typed and the input sent to the server (CustomVoiceForm.tsx shows it).
 */
import { createIntl, type IntlShape } from 'react-intl';
import {
  CUSTOM_VOICE_CODE_PATTERN,
  DEFAULT_CUSTOM_PROSODY,
  type CustomVoice,
  type CustomVoiceInput,
} from '../../../../electron/shared/custom-voices';
import type { LexiconKind } from '../../../../electron/shared/lexicon';
import { findVoice, VOICES } from '../../../../electron/shared/voices';

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
