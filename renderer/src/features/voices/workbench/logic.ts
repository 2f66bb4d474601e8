/**
 * The voice workbench's pure logic: the default sentence per language, a streamed WAV's length
 * (and its header made whole), the comparison's CSV, and the blind A/B rounds and their tally.
 */

import { defineMessages, type MessageDescriptor } from 'react-intl';
import { csvFile } from '../../../../../electron/shared/csv';

/**
 * An error the workbench itself raises: its message in English (tests and logs read it) and the
 * descriptor the view formats in the interface's language.
 */
export class WorkbenchError extends Error {
  constructor(
    readonly descriptor: MessageDescriptor & { defaultMessage: string },
    readonly values: Record<string, string> = {},
  ) {
    super(descriptor.defaultMessage.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? ''));
    this.name = 'WorkbenchError';
  }
}

export const ERRORS = defineMessages({
  notWav: { id: 'voices.workbench.error.notWav', defaultMessage: 'The answer is not a WAV file.' },
  noFormat: {
    id: 'voices.workbench.error.noFormat',
    defaultMessage: 'The WAV file has no format chunk before its samples.',
  },
  noSamples: { id: 'voices.workbench.error.noSamples', defaultMessage: 'The WAV file has no samples.' },
  httpStatus: {
    id: 'voices.workbench.error.httpStatus',
    defaultMessage: 'The audition failed (HTTP {status}).',
  },
  noAudio: { id: 'voices.workbench.error.noAudio', defaultMessage: 'The audition answered no audio.' },
  sameVoice: {
    id: 'voices.workbench.error.sameVoice',
    defaultMessage: 'A blind test needs two different voices.',
  },
}) as Record<
  'notWav' | 'noFormat' | 'noSamples' | 'httpStatus' | 'noAudio' | 'sameVoice',
  MessageDescriptor & { defaultMessage: string }
>;

/** The sentence a tester starts from, in the first voice's language. */
export const DEFAULT_SENTENCES: Record<string, string> = {
  vi: 'Xin chào, hôm nay trời đẹp và chúng ta cùng nghe thử giọng đọc này.',
  en: 'The lighthouse keeper climbed the stairs at dusk and lit the lamp.',
  fr: 'Le gardien du phare a monté les marches au crépuscule.',
  de: 'Der Leuchtturmwärter stieg in der Dämmerung die Treppe hinauf.',
  es: 'El farero subió las escaleras al anochecer y encendió la lámpara.',
  ja: '灯台守は夕暮れに階段を上り、ランプに火をともしました。',
  zh: '灯塔看守人在黄昏时爬上楼梯，点亮了灯。',
  ko: '등대지기는 해질녘에 계단을 올라 등불을 켰습니다.',
};

/** The language part of a voice code or language code ("vi_female_…" → "vi", "en-US" → "en"). */
export function languageOf(code: string): string {
  return (/^([a-z]{2,3})[_-]/.exec(code)?.[1] ?? code.slice(0, 2)).toLowerCase();
}

/** The default sentence for a language (English when there is none for it). */
export function defaultSentence(language: string | undefined): string {
  return DEFAULT_SENTENCES[language ?? ''] ?? DEFAULT_SENTENCES.en!;
}

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Bytes of samples actually present. */
  dataBytes: number;
  /** Seconds of audio. */
  duration: number;
}

/**
 * Reads a PCM WAV (a live stream's header says "size unknown": the samples are counted up to
 * the end of what arrived). Throws when it is not one.
 */
export function readWav(bytes: Uint8Array): WavInfo & { dataOffset: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (bytes.length < 12 || ascii(0) !== 'RIFF' || ascii(8) !== 'WAVE')
    throw new WorkbenchError(ERRORS.notWav);
  let offset = 12;
  let format: { sampleRate: number; channels: number; bitsPerSample: number } | undefined;
  while (offset + 8 <= bytes.length) {
    const id = ascii(offset);
    const size = view.getUint32(offset + 4, true);
    if (id === 'fmt ') {
      format = {
        channels: view.getUint16(offset + 10, true),
        sampleRate: view.getUint32(offset + 12, true),
        bitsPerSample: view.getUint16(offset + 22, true),
      };
    } else if (id === 'data') {
      if (!format) throw new WorkbenchError(ERRORS.noFormat);
      const dataOffset = offset + 8;
      const frame = format.channels * (format.bitsPerSample / 8);
      const present = bytes.length - dataOffset;
      const dataBytes = Math.min(size, present) - (Math.min(size, present) % frame);
      return { ...format, dataOffset, dataBytes, duration: dataBytes / frame / format.sampleRate };
    }
    offset += 8 + size + (size % 2);
  }
  throw new WorkbenchError(ERRORS.noSamples);
}

/**
 * The same WAV with its RIFF and data sizes set to what arrived, so every player and decoder
 * reads its length from the header (a live stream's header leaves them unknown).
 */
export function completeWav(bytes: Uint8Array): { bytes: Uint8Array; info: WavInfo } {
  const { dataOffset, ...info } = readWav(bytes);
  const out = bytes.slice(0, dataOffset + info.dataBytes);
  const view = new DataView(out.buffer);
  view.setUint32(4, out.length - 8, true);
  view.setUint32(dataOffset - 4, info.dataBytes, true);
  return { bytes: out, info };
}

export interface ComparisonRow {
  file: string;
  voiceCode: string;
  name: string;
  /** `catalogue` or `custom` (machine values: the same in every interface language). */
  kind: 'catalogue' | 'custom';
  engine: string;
  durationS: number;
  firstAudioMs: number;
  totalMs: number;
  rtf: number;
  /** How much the sentence cache answered (X-Sentence-Cache), '' when the server did not say. */
  cache: string;
  favourite: boolean;
  note: string;
  wins: number;
  sentence: string;
}

/**
 * The CSV's columns: stable English machine names, the same in every interface language (a
 * spreadsheet or script reading them keeps working when the studio changes language;
 * docs/USER-GUIDE.md lists them).
 */
export const CSV_HEADER = [
  'file',
  'voice_code',
  'name',
  'kind',
  'engine',
  'duration_s',
  'first_audio_ms',
  'total_ms',
  'real_time_factor',
  'sentence_cache',
  'favourite',
  'note',
  'ab_wins',
  'sentence',
] as const;

/**
 * The comparison's CSV file (byte-order mark first, csvFile): a header, then one row per voice
 * (the sentence spoken in each); `favourite` is `yes` or `no`, in every interface language.
 */
export function comparisonCsv(rows: readonly ComparisonRow[]): string {
  return csvFile([
    CSV_HEADER,
    ...rows.map((r) => [
      r.file,
      r.voiceCode,
      r.name,
      r.kind,
      r.engine,
      r.durationS.toFixed(3),
      Math.round(r.firstAudioMs),
      Math.round(r.totalMs),
      r.rtf.toFixed(3),
      r.cache,
      r.favourite ? 'yes' : 'no',
      r.note,
      r.wins,
      r.sentence,
    ]),
  ]);
}

/** A file name for a voice's audio in the zip: its place and its code, nothing a file system refuses. */
export function audioFileName(index: number, voiceCode: string): string {
  return `${String(index + 1).padStart(2, '0')}-${voiceCode.replace(/[^\w.-]+/g, '_')}.wav`;
}

/** Which voice is A and which is B in a blind round: the order by a coin (`random` ∈ [0, 1)). */
export function assignBlind(first: string, second: string, random: number): { a: string; b: string } {
  if (first === second) throw new WorkbenchError(ERRORS.sameVoice);
  return random < 0.5 ? { a: first, b: second } : { a: second, b: first };
}

export type Vote = 'a' | 'b' | 'same';

export interface BlindResult {
  a: string;
  b: string;
  vote: Vote;
}

/** The voice a vote chose, or null for "the same". */
export function winnerOf(result: BlindResult): string | null {
  return result.vote === 'a' ? result.a : result.vote === 'b' ? result.b : null;
}

export interface TallyLine {
  voiceCode: string;
  wins: number;
  rounds: number;
}

/** Wins and rounds per voice over the blind rounds, most wins first (then by code). */
export function tally(results: readonly BlindResult[]): TallyLine[] {
  const lines = new Map<string, TallyLine>();
  const line = (code: string) => {
    let l = lines.get(code);
    if (!l) lines.set(code, (l = { voiceCode: code, wins: 0, rounds: 0 }));
    return l;
  };
  for (const r of results) {
    line(r.a).rounds++;
    line(r.b).rounds++;
    const w = winnerOf(r);
    if (w) line(w).wins++;
  }
  return [...lines.values()].sort((x, y) => y.wins - x.wins || x.voiceCode.localeCompare(y.voiceCode));
}

/**
 * The waveform's outline from 16-bit mono samples: the largest magnitude in each of `buckets`
 * equal parts, in [0, 1] (wavesurfer.js draws these instead of decoding the audio again).
 */
export function peaksOf(bytes: Uint8Array, info: WavInfo & { dataOffset: number }, buckets = 600): number[] {
  const samples = Math.floor(info.dataBytes / 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset + info.dataOffset, info.dataBytes);
  const count = Math.max(1, Math.min(buckets, samples));
  const peaks = new Array<number>(count).fill(0);
  for (let i = 0; i < samples; i++) {
    const bucket = Math.min(count - 1, Math.floor((i * count) / samples));
    const v = Math.abs(view.getInt16(i * 2, true)) / 32768;
    if (v > peaks[bucket]!) peaks[bucket] = v;
  }
  return peaks;
}
