/**
 * The voice workbench's logic: the CSV (quoted as RFC 4180 says), a streamed WAV made whole and
 * measured, the blind A/B order and tally, the slice kept in storage; and one measured audition
 * of the real core (client-side timings, a WAV whose header states its length).
 */

import { afterAll, beforeAll, describe, expect, it, vi as vitest } from 'vitest';
import {
  assignBlind,
  audioFileName,
  comparisonCsv,
  completeWav,
  defaultSentence,
  languageOf,
  peaksOf,
  readWav,
  tally,
} from '../../renderer/src/features/voices/workbench/logic';
import { csvField, csvRecords } from '../../electron/shared/csv';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { measureAudition } from '../../renderer/src/features/voices/workbench/measure';
import { createApiClient } from '../../renderer/src/lib/api-client';
import { createStudioStore } from '../../renderer/src/stores';
import { WORKBENCH_KEY } from '../../renderer/src/stores/workbench-slice';
import { memoryStorage, startSignedIn, type SignedIn } from './helpers';

/** A WAV as the live audition stream sends it: sizes 0xFFFFFFFF, `samples` 16-bit mono samples. */
function streamedWav(samples: Int16Array, rate = 22050): Uint8Array {
  const bytes = new Uint8Array(44 + samples.byteLength);
  const view = new DataView(bytes.buffer);
  const ascii = (o: number, t: string) => [...t].forEach((c, i) => (bytes[o + i] = c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 0xffffffff, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, 0xffffffff, true);
  samples.forEach((s, i) => view.setInt16(44 + i * 2, s, true));
  return bytes;
}

describe('workbench CSV', () => {
  it('quotes fields with commas, quotes, line breaks or edge spaces, and nothing else', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(12)).toBe('12');
    expect(csvField(null)).toBe('');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('she said "hi"')).toBe('"she said ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvField(' lead')).toBe('" lead"');
    expect(
      csvRecords([
        ['a', 'b'],
        ['1', 'x,y'],
      ]),
    ).toBe('a,b\r\n1,"x,y"\r\n');
  });

  it('writes a header and one row per voice, notes and the Vietnamese sentence intact', () => {
    const csv = comparisonCsv([
      {
        file: audioFileName(0, 'vi_female_thuytrang_mb'),
        voiceCode: 'vi_female_thuytrang_mb',
        name: 'Thùy Trang',
        kind: 'catalogue',
        engine: 'espeak',
        durationS: 2.5,
        firstAudioMs: 101.6,
        totalMs: 400.2,
        rtf: 0.16008,
        cache: 'hit',
        favourite: true,
        note: 'Warm, "clear", a bit fast\nsecond line',
        wins: 2,
        sentence: 'Xin chào, các bạn.',
      },
    ]);
    // Excel reads UTF-8 (Thùy Trang) right only after a byte-order mark: EF BB BF first.
    expect([...new TextEncoder().encode(csv).subarray(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 0x66]);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'file,voice_code,name,kind,engine,duration_s,first_audio_ms,total_ms,real_time_factor,sentence_cache,favourite,note,ab_wins,sentence',
    );
    expect(lines[1]).toBe(
      '01-vi_female_thuytrang_mb.wav,vi_female_thuytrang_mb,Thùy Trang,catalogue,espeak,2.500,102,400,0.160,hit,yes,"Warm, ""clear"", a bit fast\nsecond line",2,"Xin chào, các bạn."',
    );
    expect(lines).toHaveLength(3);
    expect(audioFileName(11, 'my voice/1')).toBe('12-my_voice_1.wav');
  });

  it('keeps its column names and values out of the catalogues: the same header in English and Vietnamese', () => {
    // The file name inside the zip is the only CSV word the interface language changes.
    const csvIds = (catalogue: Record<string, string>) =>
      Object.keys(catalogue).filter((id) => id.startsWith('voices.workbench.csv.'));
    expect(csvIds(en)).toEqual(['voices.workbench.csv.fileName']);
    expect(csvIds(vi)).toEqual(['voices.workbench.csv.fileName']);
  });
});

describe('workbench audio', () => {
  it('counts a streamed WAV up to what arrived and writes its sizes into the header', () => {
    const samples = Int16Array.from({ length: 22050 }, (_, i) => (i % 100 < 50 ? 16000 : -16000));
    // A stream cut in the middle of a sample: the odd byte is not counted.
    const streamed = streamedWav(samples).slice(0, 44 + 22050 * 2 - 1);
    const info = readWav(streamed);
    expect(info.dataBytes).toBe(22049 * 2);
    expect(info.duration).toBeCloseTo(22049 / 22050, 6);
    const { bytes, info: whole } = completeWav(streamed);
    const view = new DataView(bytes.buffer);
    expect(view.getUint32(40, true)).toBe(22049 * 2);
    expect(view.getUint32(4, true)).toBe(bytes.length - 8);
    expect(bytes.length).toBe(44 + 22049 * 2);
    expect(whole.sampleRate).toBe(22050);
    const peaks = peaksOf(bytes, readWav(bytes), 10);
    expect(peaks).toHaveLength(10);
    for (const p of peaks) expect(p).toBeCloseTo(16000 / 32768, 4);
    expect(() => readWav(new TextEncoder().encode('{"error":{}}'))).toThrow(/not a WAV/);
  });

  it('starts from a sentence in the voice language', () => {
    expect(languageOf('vi_female_thuytrang_mb')).toBe('vi');
    expect(languageOf('vi')).toBe('vi');
    expect(languageOf('en-US')).toBe('en');
    expect(defaultSentence('vi')).toMatch(/Xin chào/);
    expect(defaultSentence('xx')).toBe(defaultSentence('en'));
  });
});

describe('blind A/B', () => {
  it('puts the two voices in an order decided by the coin, never the same voice twice', () => {
    expect(assignBlind('x', 'y', 0.1)).toEqual({ a: 'x', b: 'y' });
    expect(assignBlind('x', 'y', 0.9)).toEqual({ a: 'y', b: 'x' });
    expect(() => assignBlind('x', 'x', 0.3)).toThrow(/two different voices/);
    // Over many coins each voice is A about half the time.
    let xFirst = 0;
    for (let i = 0; i < 1000; i++) if (assignBlind('x', 'y', i / 1000).a === 'x') xFirst++;
    expect(xFirst).toBe(500);
  });

  it('tallies wins and rounds per voice, whichever letter it had', () => {
    expect(
      tally([
        { a: 'x', b: 'y', vote: 'a' },
        { a: 'y', b: 'x', vote: 'b' },
        { a: 'y', b: 'z', vote: 'same' },
        { a: 'z', b: 'y', vote: 'b' },
      ]),
    ).toEqual([
      { voiceCode: 'x', wins: 2, rounds: 2 },
      { voiceCode: 'y', wins: 1, rounds: 4 },
      { voiceCode: 'z', wins: 0, rounds: 2 },
    ]);
    expect(tally([])).toEqual([]);
  });
});

describe('workbench slice', () => {
  const client = createApiClient({ baseUrl: 'http://127.0.0.1:9' });

  it('keeps the sentence, queue, favourites, notes and tally across a reload', () => {
    const storage = memoryStorage();
    const store = createStudioStore({ client, storage });
    const s = store.getState();
    s.setWorkbenchSentence('Câu của tôi.');
    s.queueWorkbenchVoice('a');
    s.queueWorkbenchVoice('b');
    s.queueWorkbenchVoice('a');
    s.toggleWorkbenchFavourite('b');
    s.setWorkbenchNote('a', 'too fast');
    s.addBlindResult({ a: 'a', b: 'b', vote: 'b' });
    const again = createStudioStore({ client, storage }).getState().workbench;
    expect(again).toEqual({
      sentence: 'Câu của tôi.',
      queue: ['a', 'b'],
      favourites: ['b'],
      notes: { a: 'too fast' },
      blind: [{ a: 'a', b: 'b', vote: 'b' }],
    });
    // An emptied sentence stays empty (the default comes back only when asked for).
    store.getState().setWorkbenchSentence('');
    expect(createStudioStore({ client, storage }).getState().workbench.sentence).toBe('');
    store.getState().setWorkbenchSentence(null);
    expect(createStudioStore({ client, storage }).getState().workbench.sentence).toBeNull();
    store.getState().toggleWorkbenchFavourite('b');
    store.getState().setWorkbenchNote('a', '');
    store.getState().unqueueWorkbenchVoice('a');
    expect(createStudioStore({ client, storage }).getState().workbench).toMatchObject({
      queue: ['b'],
      favourites: [],
      notes: {},
    });
  });

  it('reads damaged storage as empty parts rather than failing', () => {
    const storage = memoryStorage({
      [WORKBENCH_KEY]: JSON.stringify({
        sentence: 3,
        queue: ['a', 7],
        notes: { a: 1, b: 'ok' },
        blind: [{ a: 'x' }],
      }),
    });
    expect(createStudioStore({ client, storage }).getState().workbench).toEqual({
      sentence: null,
      queue: ['a'],
      favourites: [],
      notes: { b: 'ok' },
      blind: [],
    });
    const broken = memoryStorage({ [WORKBENCH_KEY]: '{not json' });
    expect(createStudioStore({ client, storage: broken }).getState().workbench.queue).toEqual([]);
  });
});

describe('a measured audition of the real core', () => {
  let s: SignedIn;
  beforeAll(async () => {
    s = await startSignedIn();
  }, 60_000);
  afterAll(async () => {
    await s.t.close();
  });

  it('times the first byte and the end in the client and makes the WAV whole', async () => {
    const url = s.client().auditionUrl('vi_female_thuytrang_mb', { text: 'Xin chào, hôm nay trời đẹp.' });
    const m = await measureAudition(url, { headers: { cookie: s.cookie } });
    expect(m.info.sampleRate).toBeGreaterThan(8000);
    expect(m.info.duration).toBeGreaterThan(0.8);
    expect(m.info.duration).toBeLessThan(5);
    expect(m.firstAudioMs).toBeGreaterThan(0);
    expect(m.totalMs).toBeGreaterThanOrEqual(m.firstAudioMs);
    expect(m.rtf).toBeCloseTo(m.totalMs / 1000 / m.info.duration, 6);
    expect(new DataView(m.bytes.buffer).getUint32(40, true)).toBe(m.info.dataBytes);
    // An unknown voice: the API's own message.
    await expect(
      measureAudition(s.client().auditionUrl('xx_nobody'), { headers: { cookie: s.cookie } }),
    ).rejects.toThrow(/Unknown voice_code/);
  }, 60_000);

  it('reads how much the sentence cache answered, and measures without it when asked', async () => {
    const url = s.client().auditionUrl('en_female_emily_us', { text: 'The lamp was lit at dusk.' });
    const headers = { cookie: s.cookie };
    expect((await measureAudition(url, { headers })).cache).toBe('miss');
    // The entry is stored while the answer goes out: asked again until it is read back.
    await vitest.waitFor(async () => expect((await measureAudition(url, { headers })).cache).toBe('hit'), {
      timeout: 10_000,
      interval: 50,
    });
    const measured = await measureAudition(url, { headers, bypassCache: true });
    expect(measured.cache).toBe('bypass');
    expect(measured.info.duration).toBeGreaterThan(0.5);
  }, 60_000);
});
