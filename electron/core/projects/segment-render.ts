/**
 * One segment of a book project → what the engine gets, and its audio on disk.
 *
 * The segment's speaker (a character, or the narrator) gives the request's voice and prosody.
 * Plain text goes as it is; a segment with quotations voiced by other characters, or with
 * emphasis, goes as SSML: `<voice name>` and `<prosody rate pitch volume>` (the character's
 * prosody relative to the speaker's) around each quotation, `<emphasis>` around emphasised
 * words. The engine's SSML path keeps word timings and subtitles on the written words.
 *
 * The audio key is the sha256 of everything that shapes the audio: the text or SSML sent, the
 * voice and prosody, the model, the lexicon entries and the neural voices' packs. The audio lives
 * at `<filesDir>/projects/<project id>/<audio key>.wav` with its word timings beside it
 * (`<audio key>.json`); a segment whose key has a file already reuses it bit for bit.
 */

import { createHash } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { escapeSsmlText } from '../../shared/ssml';
import {
  DEFAULT_BITRATE,
  RATE_MAX,
  RATE_MIN,
  VOLUME_MAX,
  VOLUME_MIN,
  type ModelId,
} from '../../shared/options';
import type { SegmentCheck } from '../../shared/projects';
import { findVoice, type LanguageCode } from '../../shared/voices';
import {
  parseWavHeader,
  ssmlVoices,
  type Engine,
  type LexiconRule,
  type NeuralVoice,
  type RenderRequest,
} from '../engine';
import type { CharacterRow, SegmentRow } from '../store';
import { checkSegmentAudio } from './audio-checks';
import type { CustomVoice } from '../../shared/custom-voices';
import { composeProsody, customLexicon, resolveCustomVoice } from '../voices';

/** A voice with its prosody: a character's. */
export type CastVoice = Pick<CharacterRow, 'voice_code' | 'speed_rate' | 'pitch_rate' | 'volume'>;

/** What a segment's render needs from the project. */
export interface SegmentSource {
  segment: Pick<SegmentRow, 'text' | 'speaker' | 'quotes' | 'emphasis'>;
  /** The project's cast by id (the narrator included). */
  cast: ReadonlyMap<string, CharacterRow>;
  narrator: CastVoice;
  model_id: ModelId;
  /** The custom voices the cast names, by code (a character's voice_code may be one). */
  customVoices?: ReadonlyMap<string, CustomVoice> | undefined;
}

/** The engine's input for a segment. */
export interface SegmentInput extends CastVoice {
  /** Plain text, or SSML (`<speak>…`). */
  text: string;
  ssml: boolean;
  model_id: ModelId;
  /** Code points of the spoken text: the billable count. */
  characters: number;
  /**
   * The custom voice of the segment's speaker: `voice_code` and the prosody are then its
   * voice_code and the composed prosody; its base and lexicon are `prepareSegment`'s to apply.
   * (A quotation by another character with a custom voice is spoken by that voice's voice_code
   * with its composed prosody.)
   */
  custom?: CustomVoice | undefined;
}

/** A cast voice as it speaks: a custom voice's voice_code and composed prosody, else itself. */
export function effectiveVoice(
  voice: CastVoice,
  customVoices: ReadonlyMap<string, CustomVoice> | undefined,
): CastVoice & { custom?: CustomVoice } {
  const custom = customVoices?.get(voice.voice_code);
  if (!custom) return voice;
  return { voice_code: custom.voice_code, ...composeProsody(custom.prosody, voice), custom };
}

interface Span {
  start: number;
  end: number;
}

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
const percent = (factor: number) => `${Math.round(factor * 1000) / 10}%`;

function parseJsonArray<T>(json: string | null): T[] {
  if (!json) return [];
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? (value as T[]) : [];
}

/** A segment as the engine reads it (see the module comment). */
export function segmentInput(source: SegmentSource): SegmentInput {
  const { segment, cast } = source;
  const speaker = effectiveVoice(
    (segment.speaker ? cast.get(segment.speaker) : undefined) ?? source.narrator,
    source.customVoices,
  );
  const base: CastVoice = {
    voice_code: speaker.voice_code,
    speed_rate: speaker.speed_rate,
    pitch_rate: speaker.pitch_rate,
    volume: speaker.volume,
  };
  const voiceOf = (id: string) => effectiveVoice(cast.get(id)!, source.customVoices);
  const chars = Array.from(segment.text);
  const quotes = parseJsonArray<Span & { character_id: string }>(segment.quotes)
    .filter((q) => cast.has(q.character_id) && q.end > q.start)
    .sort((a, b) => a.start - b.start);
  const emphasis = parseJsonArray<Span & { kind: 'em' | 'strong' }>(segment.emphasis).filter(
    (e) => e.end > e.start,
  );
  const result = {
    ...base,
    model_id: source.model_id,
    characters: chars.length,
    ...(speaker.custom ? { custom: speaker.custom } : {}),
  };
  const voiced = quotes.filter((q) => {
    const c = voiceOf(q.character_id);
    return (
      c.voice_code !== base.voice_code ||
      c.speed_rate !== base.speed_rate ||
      c.pitch_rate !== base.pitch_rate ||
      c.volume !== base.volume
    );
  });
  if (voiced.length === 0 && emphasis.length === 0) return { ...result, text: segment.text, ssml: false };

  // Cut the text where a quotation or an emphasis starts or ends; each piece gets its tags.
  const cuts = new Set<number>([0, chars.length]);
  for (const s of [...voiced, ...emphasis]) {
    cuts.add(clamp(s.start, 0, chars.length));
    cuts.add(clamp(s.end, 0, chars.length));
  }
  const points = [...cuts].sort((a, b) => a - b);
  let body = '';
  let open: string | undefined;
  let openTag = '';
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i]!;
    const end = points[i + 1]!;
    const quote = voiced.find((q) => q.start <= start && end <= q.end);
    const emph = emphasis.find((e) => e.start <= start && end <= e.end);
    const key = quote ? `${quote.start}` : undefined;
    if (key !== open) {
      body += openTag ? '</prosody></voice>' : '';
      openTag = '';
      open = key;
      if (quote) {
        const c = voiceOf(quote.character_id);
        const rate = clamp(c.speed_rate / base.speed_rate, RATE_MIN, RATE_MAX);
        const pitch = clamp(c.pitch_rate / base.pitch_rate, RATE_MIN, RATE_MAX);
        const volume = clamp(c.volume / base.volume, VOLUME_MIN / 100, VOLUME_MAX / 100);
        openTag = `<voice name="${escapeSsmlText(c.voice_code).replace(/"/g, '&quot;')}"><prosody rate="${percent(rate)}" pitch="${percent(pitch)}" volume="${percent(volume)}">`;
        body += openTag;
      }
    }
    const piece = escapeSsmlText(chars.slice(start, end).join(''));
    body += emph
      ? `<emphasis level="${emph.kind === 'strong' ? 'strong' : 'moderate'}">${piece}</emphasis>`
      : piece;
  }
  if (openTag) body += '</prosody></voice>';
  return { ...result, text: `<speak>${body}</speak>`, ssml: true };
}

/** How the render finds neural voices and lexicon entries (as the jobs do; never reject). */
export interface VoiceLookups {
  neuralVoice?: ((voiceCode: string, modelId: ModelId) => Promise<NeuralVoice | undefined>) | undefined;
  lexicon?: ((language: LanguageCode) => Promise<readonly LexiconRule[]>) | undefined;
  /** One speaker of an installed pack (a custom voice's pack base; VoiceLibrary.packVoice). */
  packVoice?: ((packId: string, speaker: string | undefined) => Promise<NeuralVoice | undefined>) | undefined;
  /** A Kokoro mix's spelling as an installed Kokoro pack speaks it (a custom voice's blend). */
  kokoroVoice?: ((mix: string) => Promise<NeuralVoice | undefined>) | undefined;
}

/** A segment's engine request minus its paths, with the audio key. */
export interface PreparedSegment {
  input: SegmentInput;
  request: Omit<RenderRequest, 'audioPath' | 'timingsPath'>;
  audioKey: string;
  language: LanguageCode;
}

/** Resolves the voices and lexicons of a segment's input and computes its audio key. */
export async function prepareSegment(input: SegmentInput, lookups: VoiceLookups): Promise<PreparedSegment> {
  const language = findVoice(input.voice_code)?.language ?? 'en';
  const quiet = <T>(what: Promise<T> | undefined) =>
    (what ?? Promise.resolve(undefined)).catch(() => undefined);
  const neuralVoice = input.custom
    ? (
        await resolveCustomVoice(input.custom, input, {
          neuralVoice: (code) => quiet(lookups.neuralVoice?.(code, input.model_id)),
          packVoice: (packId, speaker) => quiet(lookups.packVoice?.(packId, speaker)),
          kokoroVoice: (mix) => quiet(lookups.kokoroVoice?.(mix)),
        })
      ).neuralVoice
    : await quiet(lookups.neuralVoice?.(input.voice_code, input.model_id));
  const global = (await lookups.lexicon?.(language).catch(() => [])) ?? [];
  const lexicon = input.custom ? customLexicon(input.custom, global) : global;
  const others = input.ssml
    ? await ssmlVoices(input.text, input.voice_code, {
        neuralVoice: async (code) => lookups.neuralVoice?.(code, input.model_id),
        lexicon: async (lang) => (await lookups.lexicon?.(lang).catch(() => [])) ?? [],
      })
    : {};
  const request: PreparedSegment['request'] = {
    text: input.text,
    voice_code: input.voice_code,
    model_id: input.model_id,
    speed_rate: input.speed_rate,
    pitch_rate: input.pitch_rate,
    volume: input.volume,
    audio_type: 'wav',
    bitrate: DEFAULT_BITRATE,
    neuralVoice,
    lexicon,
    ...others,
  };
  const packs = (v: NeuralVoice | undefined) =>
    v
      ? [v.packId, v.family === 'kokoro' ? v.voiceName : v.speaker, ...(v.character ? [v.character] : [])]
      : null;
  const audioKey = createHash('sha256')
    .update(
      JSON.stringify({
        v: 1,
        text: input.text,
        voice: [input.voice_code, input.speed_rate, input.pitch_rate, input.volume, input.model_id],
        lexicon,
        neural: packs(neuralVoice),
        voices: Object.entries(others.voices ?? {})
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([code, v]) => [code, packs(v)]),
        lexicons: Object.entries(others.lexicons ?? {}).sort(([a], [b]) => a.localeCompare(b)),
      }),
    )
    .digest('hex');
  return { input, request, audioKey, language };
}

export const audioPathOf = (filesDir: string, projectId: string, audioKey: string) =>
  join(filesDir, 'projects', projectId, `${audioKey}.wav`);
export const timingsPathOf = (filesDir: string, projectId: string, audioKey: string) =>
  join(filesDir, 'projects', projectId, `${audioKey}.json`);

export interface RenderedSegment {
  audioKey: string;
  durationMs: number;
  checks: SegmentCheck[];
  /** True when the files of this key existed and were kept as they were. */
  reused: boolean;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Whether the audio and word timings of `audioKey` are in the project's folder already. */
export async function hasAudio(filesDir: string, projectId: string, audioKey: string): Promise<boolean> {
  return (
    (await exists(audioPathOf(filesDir, projectId, audioKey))) &&
    (await exists(timingsPathOf(filesDir, projectId, audioKey)))
  );
}

/**
 * Renders a prepared segment into the project's folder (unless its files exist) and checks its
 * audio. Rejects with the engine's AppError (or the signal's reason).
 */
export async function renderSegment(
  engine: Engine,
  prepared: PreparedSegment,
  where: { filesDir: string; projectId: string; text: string; signal?: AbortSignal | undefined },
): Promise<RenderedSegment> {
  const audioPath = audioPathOf(where.filesDir, where.projectId, prepared.audioKey);
  const timingsPath = timingsPathOf(where.filesDir, where.projectId, prepared.audioKey);
  const reused = await hasAudio(where.filesDir, where.projectId, prepared.audioKey);
  if (!reused) {
    await engine.render({ ...prepared.request, audioPath, timingsPath, signal: where.signal });
  }
  const bytes = new Uint8Array(await readFile(audioPath));
  const header = parseWavHeader(bytes);
  const pcm = new Int16Array(
    bytes.buffer.slice(
      bytes.byteOffset + header.dataOffset,
      bytes.byteOffset + header.dataOffset + header.dataBytes,
    ),
  );
  const checks = checkSegmentAudio({
    pcm,
    sampleRate: header.sampleRate,
    text: where.text,
    language: prepared.language,
    speedRate: prepared.input.speed_rate,
  });
  return {
    audioKey: prepared.audioKey,
    durationMs: Math.round((pcm.length / header.sampleRate) * 1000),
    checks,
    reused,
  };
}
