import { describe, expect, it } from 'vitest';
import {
  createCueBuilder,
  displayWidth,
  formatSrt,
  formatSrtCue,
  parseSrt,
  timeChunkWords,
  tokenizeWords,
  validateCues,
  type CueOptions,
} from '../../../electron/core/engine/subtitles';
import type { EngineWordMark, SubtitleCue, WordTiming } from '../../../electron/core/engine/types';
import { loadEspeak } from '../../fixtures/espeak';

/** Deterministic PRNG (mulberry32), so "random" engine quirks are the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Quirks {
  /** Speaking rate, ms per code unit of text (spaces and punctuation included). */
  msPerChar?: number;
  /** Share of words whose mark is lost. */
  drop?: number;
  /** Share of words merged with the next into one mark ("it is"). */
  merge?: number;
  /** Share of words that get three marks at the same position (a date read in parts). */
  repeat?: number;
  shuffle?: boolean;
  seed?: number;
}

/**
 * Marks as the engine reports them for `text` spoken at a fixed rate: a word at offset p starts
 * at p × msPerChar. Returns the marks and the chunk's speech length.
 */
function synthMarks(text: string, quirks: Quirks = {}): { marks: EngineWordMark[]; speechMs: number } {
  const { msPerChar = 60, drop = 0, merge = 0, repeat = 0, shuffle = false, seed = 1 } = quirks;
  const rnd = random(seed);
  const words = [...text.matchAll(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu)];
  const marks: EngineWordMark[] = [];
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    const start = w.index;
    let end = start + w[0].length;
    const r = rnd();
    if (r < drop) continue;
    if (r < drop + merge && words[k + 1]) {
      end = words[k + 1]!.index + words[k + 1]![0].length;
      k++;
    }
    const audioMs = start * msPerChar;
    marks.push({ sourceStart: start, sourceEnd: end, audioMs });
    if (rnd() < repeat) {
      marks.push({ sourceStart: start + 1, sourceEnd: end, audioMs: audioMs + 150 });
      marks.push({ sourceStart: start + 1, sourceEnd: end, audioMs: audioMs + 300 });
    }
  }
  if (shuffle) marks.sort(() => rnd() - 0.5);
  return { marks, speechMs: text.length * msPerChar };
}

interface Rendered {
  cues: SubtitleCue[];
  words: WordTiming[];
  speechEndMs: number;
  /** Cues returned by each push, then by finish. */
  emitted: number[];
}

/** Runs chunks through word timing and the cue builder as the pipeline does, with pauses between chunks. */
function render(
  chunks: string[],
  quirks: Quirks = {},
  options?: CueOptions & { pauseMs?: number },
): Rendered {
  const builder = createCueBuilder(options);
  const cues: SubtitleCue[] = [];
  const words: WordTiming[] = [];
  const emitted: number[] = [];
  let offset = 0;
  let textOffset = 0;
  let speechEndMs = 0;
  chunks.forEach((text, c) => {
    const { marks, speechMs } = synthMarks(text, { ...quirks, seed: (quirks.seed ?? 1) + c });
    speechEndMs = offset + speechMs;
    const timed = timeChunkWords({ text, textOffset, marks, chunkOffsetMs: offset, speechEndMs });
    words.push(...timed);
    const out = builder.push(timed, text, textOffset, speechEndMs);
    emitted.push(out.length);
    cues.push(...out);
    offset = speechEndMs + (options?.pauseMs ?? 400);
    textOffset += text.length + 1;
  });
  const tail = builder.finish();
  emitted.push(tail.length);
  cues.push(...tail);
  return { cues, words, speechEndMs, emitted };
}

const tokens = (text: string) => tokenizeWords(text).map((t) => t.text);
const visible = (text: string) => text.replace(/\s+/gu, '');

/** Every word of the input in exactly one cue, in order, with the source's punctuation. */
function expectCoverage(cues: SubtitleCue[], source: string): void {
  expect(tokens(cues.map((c) => c.text).join('\n'))).toEqual(tokens(source));
  expect(cues.map((c) => visible(c.text)).join('')).toBe(visible(source));
  for (const cue of cues) {
    for (const line of cue.text.split('\n')) expect(line).toBe(line.replace(/\s+/gu, ' ').trim());
  }
}

const PARAGRAPH = [
  'The lighthouse keeper climbed the spiral stairs every evening at dusk.',
  'He polished the great lens until it gleamed like a second moon.',
  'Ships passing in the night never knew his name, but they trusted his light.',
  'It is strange, he often thought, how a life can be measured in flashes.',
  'On 2026-11-21 the storm arrived, and the sea rose higher than anyone remembered.',
  "Still, the light didn't fail; it turned, and turned, until the morning came.",
  'Yes.',
  'When the fishermen returned they brought him bread, salt and well-known stories of the harbour.',
];

describe('tokenizeWords', () => {
  it('keeps inner apostrophes, hyphens and number punctuation inside words', () => {
    expect(tokens("Don't stop: the well-known value is 3.14, not 1,000 — on 2026-11-21 at 10:30.")).toEqual([
      "Don't",
      'stop',
      'the',
      'well-known',
      'value',
      'is',
      '3.14',
      'not',
      '1,000',
      'on',
      '2026-11-21',
      'at',
      '10:30',
    ]);
  });

  it('attaches quotes, dashes and ellipses to no word', () => {
    expect(tokens("“Wait—don’t go…” she said. 'Really?' -- (maybe) ... end-")).toEqual([
      'Wait',
      'don’t',
      'go',
      'she',
      'said',
      'Really',
      'maybe',
      'end',
    ]);
  });

  it('handles letters outside ASCII and gives offsets in code units', () => {
    const text = 'Xin chào, Việt Nam! 𝒳 café';
    const found = tokenizeWords(text);
    expect(found.map((t) => t.text)).toEqual(['Xin', 'chào', 'Việt', 'Nam', '𝒳', 'café']);
    for (const t of found) expect(text.slice(t.start, t.end)).toBe(t.text);
  });

  it('splits Chinese and Japanese per character unless a mark covers a run', () => {
    expect(tokens('今日は良い天気です。')).toEqual(['今', '日', 'は', '良', 'い', '天', '気', 'で', 'す']);
    const marks: EngineWordMark[] = [
      { sourceStart: 0, sourceEnd: 3, audioMs: 0 },
      { sourceStart: 5, sourceEnd: 7, audioMs: 500 },
    ];
    expect(tokenizeWords('今日は良い天気です。', marks).map((t) => t.text)).toEqual([
      '今日は',
      '良',
      'い',
      '天気',
      'で',
      'す',
    ]);
    // A mark spanning punctuation joins only characters that touch.
    expect(
      tokenizeWords('你好，世界', [{ sourceStart: 0, sourceEnd: 5, audioMs: 0 }]).map((t) => t.text),
    ).toEqual(['你好', '世界']);
  });
});

describe('timeChunkWords', () => {
  const base = { textOffset: 0, chunkOffsetMs: 0 };

  it('gives every word exactly one timing, in order, with absolute times and offsets', () => {
    const text = PARAGRAPH.slice(0, 6).join(' ');
    const { marks, speechMs } = synthMarks(text, { drop: 0.05, merge: 0.05, repeat: 0.05, shuffle: true });
    const words = timeChunkWords({
      text,
      textOffset: 1000,
      marks,
      chunkOffsetMs: 50_000,
      speechEndMs: 50_000 + speechMs,
    });
    expect(words.map((w) => w.text)).toEqual(tokens(text));
    for (const [k, w] of words.entries()) {
      expect(text.slice(w.charStart - 1000, w.charEnd - 1000)).toBe(w.text);
      expect(w.startMs).toBeLessThan(w.endMs);
      expect(w.startMs).toBeGreaterThanOrEqual(50_000);
      if (k > 0) expect(w.startMs).toBe(words[k - 1]!.endMs);
      // The true start is charStart × 60 ms; interpolated words land close to it.
      expect(Math.abs(w.startMs - (50_000 + (w.charStart - 1000) * 60))).toBeLessThan(400);
    }
    expect(words.at(-1)!.endMs).toBe(50_000 + speechMs);
  });

  it('takes each marked word’s time exactly and interpolates merged words by length', () => {
    const text = 'it is raining';
    const marks: EngineWordMark[] = [
      { sourceStart: 0, sourceEnd: 5, audioMs: 1000 },
      { sourceStart: 6, sourceEnd: 13, audioMs: 1400 },
    ];
    const words = timeChunkWords({ ...base, text, marks, speechEndMs: 2000 });
    expect(words.map((w) => [w.text, w.startMs, w.endMs])).toEqual([
      ['it', 1000, 1200],
      ['is', 1200, 1400],
      ['raining', 1400, 2000],
    ]);
  });

  it('starts words before the first mark at the start of speech and spreads them by length', () => {
    const text = 'aa bbbb cc dd';
    const words = timeChunkWords({
      ...base,
      text,
      marks: [{ sourceStart: 8, sourceEnd: 10, audioMs: 600 }],
      chunkOffsetMs: 100,
      speechEndMs: 1100,
    });
    expect(words.map((w) => w.startMs)).toEqual([100, 300, 700, 900]);
    expect(words.at(-1)!.endMs).toBe(1100);
    const none = timeChunkWords({ ...base, text, marks: [], speechEndMs: 1000 });
    expect(none.map((w) => w.startMs)).toEqual([0, 200, 600, 800]);
  });

  it('uses the earliest of repeated marks and ignores marks that break the text order', () => {
    const text = 'On 2026-11-21 we met again.';
    const marks: EngineWordMark[] = [
      { sourceStart: 0, sourceEnd: 2, audioMs: 0 },
      { sourceStart: 4, sourceEnd: 8, audioMs: 450 },
      { sourceStart: 3, sourceEnd: 7, audioMs: 200 },
      { sourceStart: 4, sourceEnd: 8, audioMs: 900 },
      { sourceStart: 14, sourceEnd: 16, audioMs: 2300 },
      // A stray mark far too early for its word.
      { sourceStart: 17, sourceEnd: 20, audioMs: 10 },
      { sourceStart: 21, sourceEnd: 26, audioMs: 2700 },
    ];
    const words = timeChunkWords({ ...base, text, marks, speechEndMs: 3200 });
    expect(words.map((w) => [w.text, w.startMs])).toEqual([
      ['On', 0],
      ['2026-11-21', 200],
      ['we', 2300],
      ['met', 2460],
      ['again', 2700],
    ]);
  });

  it('maps a mark that starts on punctuation to the next word, and drops marks past the last word', () => {
    const text = '“Hello,” she said.';
    const marks: EngineWordMark[] = [
      { sourceStart: 0, sourceEnd: 6, audioMs: 30 },
      { sourceStart: 7, sourceEnd: 12, audioMs: 500 },
      { sourceStart: 13, sourceEnd: 17, audioMs: 700 },
      { sourceStart: 17, sourceEnd: 18, audioMs: 1200 },
    ];
    const words = timeChunkWords({ ...base, text, marks, speechEndMs: 1000 });
    expect(words.map((w) => [w.text, w.startMs, w.endMs])).toEqual([
      ['Hello', 30, 500],
      ['she', 500, 700],
      ['said', 700, 1000],
    ]);
  });

  it('clamps marks beyond the end of speech and keeps times non-decreasing when time is short', () => {
    const text = 'one two three four five';
    const marks = [0, 4, 8, 14, 19].map((p, k) => ({ sourceStart: p, sourceEnd: p + 3, audioMs: k * 1000 }));
    const words = timeChunkWords({ ...base, text, marks, speechEndMs: 2500 });
    expect(words.map((w) => w.startMs)).toEqual([0, 1000, 2000, 2498, 2499]);
    expect(words.at(-1)!.endMs).toBe(2500);
    const cramped = timeChunkWords({ ...base, text, marks, chunkOffsetMs: 10, speechEndMs: 12 });
    for (const [k, w] of cramped.entries()) {
      expect(w.startMs).toBeGreaterThanOrEqual(10);
      expect(w.endMs).toBeLessThanOrEqual(12);
      expect(w.endMs).toBeGreaterThanOrEqual(w.startMs);
      if (k > 0) expect(w.startMs).toBeGreaterThanOrEqual(cramped[k - 1]!.startMs);
    }
  });

  it('returns nothing for a chunk without words', () => {
    expect(timeChunkWords({ ...base, text: '… — !', marks: [], speechEndMs: 100 })).toEqual([]);
  });
});

describe('createCueBuilder', () => {
  it('makes valid cues from a long paragraph with realistic engine quirks, streaming as it goes', () => {
    const chunks = Array.from({ length: 12 }, () => PARAGRAPH).flat();
    const { cues, speechEndMs, emitted } = render(chunks, {
      drop: 0.05,
      merge: 0.05,
      repeat: 0.05,
      shuffle: true,
    });
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    expectCoverage(cues, chunks.join(' '));
    expect(cues.map((c) => c.index)).toEqual(cues.map((_, k) => k + 1));
    // Cues come out as chunks arrive; only the held-back tail waits for finish().
    expect(emitted.at(-1)!).toBeLessThanOrEqual(3);
    expect(emitted.slice(0, 10).reduce((a, b) => a + b, 0)).toBeGreaterThan(5);
  });

  it('splits a long sentence without punctuation into cues of at most 7 s', () => {
    const words =
      'we walked along the river and talked about the old days and the people we used to know and the songs they used to sing';
    const sentence = `${words} ${words} ${words}.`;
    const { cues, speechEndMs } = render([sentence], { msPerChar: 90, drop: 0.05 });
    expect(speechEndMs).toBeGreaterThan(30_000);
    expect(cues.length).toBeGreaterThanOrEqual(5);
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    for (const cue of cues) expect(cue.endMs - cue.startMs).toBeLessThanOrEqual(7000);
    expectCoverage(cues, sentence);
  });

  it('splits by time as well as by width when speech is slow', () => {
    const sentence = 'slowly and carefully the old man read every single word aloud to the very quiet room';
    const { cues, speechEndMs } = render([sentence], { msPerChar: 400 });
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    expectCoverage(cues, sentence);
  });

  it('keeps a very short text as one short cue, which is still valid', () => {
    const { cues, speechEndMs } = render(['Hi.'], { msPerChar: 80 });
    expect(cues).toEqual([{ index: 1, startMs: 0, endMs: 240, text: 'Hi.' }]);
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
  });

  it('merges a short sentence with the next chunk’s', () => {
    const { cues, speechEndMs } = render(
      [
        'Yes.',
        'I will be there at nine.',
        'The train leaves from the old station on the hill, so do not be late.',
      ],
      {},
      { pauseMs: 200 },
    );
    expect(cues[0]!.text.replace('\n', ' ')).toBe('Yes. I will be there at nine.');
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
  });

  it('keeps a short last sentence readable and ends the last cue at the end of speech', () => {
    const long =
      'The committee met for many hours to discuss the budget for the coming year in great detail.';
    const { cues, speechEndMs } = render([long, 'Fine.'], {}, { pauseMs: 150 });
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    expect(cues.at(-1)!.endMs).toBe(speechEndMs);
    expect(cues.at(-1)!.text).toContain('Fine.');
    expectCoverage(cues, `${long} Fine.`);
  });

  it('shows a short sentence on into a long silence rather than merging across it', () => {
    const { cues, speechEndMs } = render(
      [
        'The committee met for many hours to discuss the budget for the coming year.',
        'Yes.',
        'After that, everyone went home to sleep.',
      ],
      {},
      { pauseMs: 1500 },
    );
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    const yes = cues.find((c) => c.text === 'Yes.');
    expect(yes).toBeDefined();
    expect(yes!.endMs - yes!.startMs).toBeGreaterThanOrEqual(1000);
  });

  it('prefers a clause boundary when a sentence needs two cues', () => {
    const sentence =
      'When the rain finally stopped after three long and miserable days, the children ran outside to play in the puddles.';
    const { cues, speechEndMs } = render([sentence]);
    expect(cues).toHaveLength(2);
    expect(cues[0]!.text.replace('\n', ' ')).toMatch(/days,$/u);
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
  });

  it('does not treat the full stop of an abbreviation as the end of a sentence', () => {
    const sentence =
      'We waited in the crowded hall for almost an hour until Dr. Johnson finally arrived with the results of the study.';
    const { cues, speechEndMs } = render([sentence]);
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    for (const cue of cues.slice(0, -1)) expect(cue.text).not.toMatch(/(Mr|Mrs|Dr)\.$/u);
    expectCoverage(cues, sentence);
  });

  it('balances two lines and breaks them at word boundaries', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog near the riverbank.';
    const { cues } = render([sentence]);
    expect(cues).toHaveLength(1);
    const lines = cues[0]!.text.split('\n');
    expect(lines).toHaveLength(2);
    expect(Math.abs(lines[0]!.length - lines[1]!.length)).toBeLessThanOrEqual(12);
    expect(lines.join(' ')).toBe(sentence);
  });

  it('keeps the source’s quotes, dashes, ellipses and parentheses with normalised spacing', () => {
    const chunks = [
      'She said, “Wait — don’t go…”   and then, quite suddenly,\n fell silent.',
      '‘Really?’ he asked (quietly) -- and left... without another word.',
      'The end!',
    ];
    const { cues, speechEndMs } = render(chunks, { drop: 0.1 });
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    expectCoverage(cues, chunks.join(' '));
    expect(cues.map((c) => c.text.replace(/\n/gu, ' ')).join(' ')).toBe(
      'She said, “Wait — don’t go…” and then, quite suddenly, fell silent. ‘Really?’ he asked (quietly) -- and left... without another word. The end!',
    );
  });

  it('lays out Chinese without spaces, in lines of at most 42 columns', () => {
    const text =
      '春天来了，公园里的花都开了。孩子们在草地上奔跑，老人们坐在长椅上聊天。远处的湖面上有几只小船慢慢地划过，阳光照在水面上闪闪发光。我们决定明天早上再来这里散步，看看日出时的景色。';
    const marks: EngineWordMark[] = [];
    // The engine groups Chinese in runs of about two characters.
    for (let i = 0; i < text.length; i += 2)
      marks.push({ sourceStart: i, sourceEnd: i + 2, audioMs: i * 200 });
    const speechEndMs = text.length * 200;
    const words = timeChunkWords({ text, textOffset: 0, marks, chunkOffsetMs: 0, speechEndMs });
    expect(words.map((w) => w.text).join('')).toBe(text.replace(/[，。]/gu, ''));
    const builder = createCueBuilder();
    const cues = [...builder.push(words, text, 0, speechEndMs), ...builder.finish()];
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    expect(cues.map((c) => c.text.replace(/\n/gu, '')).join('')).toBe(text);
    for (const cue of cues) {
      expect(cue.text).not.toContain(' ');
      for (const line of cue.text.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(42);
    }
  });

  it('handles Japanese with mixed kanji, kana and punctuation across chunks', () => {
    const chunks = ['今日はとても良い天気ですね。', '「散歩に行きましょう」と彼女は言いました。'];
    const { cues, speechEndMs } = render(chunks, { msPerChar: 150 });
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    expect(cues.map((c) => c.text.replace(/\n/gu, '')).join('')).toBe(chunks.join(''));
  });

  it('cuts a word too long for one line into pieces instead of overflowing', () => {
    const word = 'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(3);
    const text = `The word ${word} is long.`;
    const { cues, speechEndMs } = render([text]);
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    expect(cues.map((c) => visible(c.text)).join('')).toBe(visible(text));
  });

  it('numbers cues consecutively across chunks, with chunk offsets', () => {
    const { cues, words } = render(PARAGRAPH, {}, { pauseMs: 700 });
    expect(cues.map((c) => c.index)).toEqual(cues.map((_, k) => k + 1));
    expect(words[0]!.charStart).toBe(0);
    const lastChunkStart = PARAGRAPH.slice(0, -1).join(' ').length + 1;
    expect(words.findLast((w) => w.text === 'When')!.charStart).toBe(lastChunkStart);
  });

  it('honours custom limits', () => {
    const options = { maxLineChars: 20, maxLines: 1, minCueMs: 500, maxCueMs: 3000 };
    const { cues, speechEndMs } = render(PARAGRAPH, { drop: 0.05 }, options);
    expect(validateCues(cues, { ...options, speechEndMs })).toEqual([]);
    for (const cue of cues) expect(cue.text).not.toContain('\n');
    expectCoverage(cues, PARAGRAPH.join(' '));
  });

  it('refuses pushes after finish and returns nothing from a second finish', () => {
    const builder = createCueBuilder();
    builder.finish();
    expect(builder.finish()).toEqual([]);
    expect(() => builder.push([], '', 0, 0)).toThrow();
  });
});

describe('SRT', () => {
  const cues: SubtitleCue[] = [
    { index: 1, startMs: 0, endMs: 1500, text: 'Hello, world.' },
    { index: 2, startMs: 1500, endMs: 3_723_456, text: 'Two lines\nof text' },
    { index: 3, startMs: 360_000_000, endMs: 360_001_000, text: '一百小时' },
  ];

  it('formats a cue as index, timing line, text and a blank line', () => {
    expect(formatSrtCue(cues[1]!)).toBe('2\n00:00:01,500 --> 01:02:03,456\nTwo lines\nof text\n\n');
    expect(formatSrtCue(cues[2]!)).toBe('3\n100:00:00,000 --> 100:00:01,000\n一百小时\n\n');
  });

  it('round-trips through parseSrt', () => {
    expect(parseSrt(formatSrt(cues))).toEqual(cues);
    const { cues: rendered } = render(PARAGRAPH);
    expect(parseSrt(formatSrt(rendered))).toEqual(rendered);
  });

  it('accepts CRLF, a BOM and extra blank lines', () => {
    const text =
      '\ufeff1\r\n00:00:00,000 --> 00:00:01,000\r\nA\r\n\r\n\r\n2\r\n00:00:01,000 --> 00:00:02,500\r\nB\r\nC\r\n';
    expect(parseSrt(text)).toEqual([
      { index: 1, startMs: 0, endMs: 1000, text: 'A' },
      { index: 2, startMs: 1000, endMs: 2500, text: 'B\nC' },
    ]);
    expect(parseSrt('')).toEqual([]);
  });

  it('rejects malformed blocks', () => {
    expect(() => parseSrt('one\n00:00:00,000 --> 00:00:01,000\nA\n')).toThrow(SyntaxError);
    expect(() => parseSrt('1\n00:00:00 --> 00:00:01\nA\n')).toThrow(/block 1/u);
    expect(() => parseSrt('1\n00:00:00,000 --> 00:00:01,000\n')).toThrow(/no text/u);
  });
});

describe('validateCues', () => {
  it('accepts valid cues and a lone short cue', () => {
    expect(validateCues([{ index: 1, startMs: 0, endMs: 300, text: 'Hi.' }])).toEqual([]);
    expect(validateCues([])).toEqual([]);
  });

  it('reports each broken rule', () => {
    const bad: SubtitleCue[] = [
      { index: 2, startMs: 0, endMs: 500, text: 'short' },
      { index: 3, startMs: 400, endMs: 9000, text: 'a\nb\nc' },
      { index: 4, startMs: 9000, endMs: 10_500, text: 'x'.repeat(43) },
      { index: 5, startMs: 10_500, endMs: 10_500, text: ' ' },
      { index: 6, startMs: 11_000, endMs: 12_000, text: '中'.repeat(22) },
    ];
    const rules = validateCues(bad, { speechEndMs: 13_000 }).map((v) => `${v.position}:${v.rule}`);
    expect(rules).toEqual([
      '0:numbering',
      '0:too-short',
      '1:numbering',
      '1:order',
      '1:line-count',
      '1:too-long',
      '2:numbering',
      '2:line-length',
      '3:numbering',
      '3:order',
      '3:empty',
      '3:too-short',
      '4:numbering',
      '4:line-length',
      '4:speech-end',
    ]);
  });
});

describe('with the real engine', () => {
  it('times an English paragraph and makes valid subtitles that end with the speech', async () => {
    const engine = await loadEspeak();
    engine.set_voice('en-us');
    const rate = engine.get_samplerate() / 1000;
    const paragraph =
      "It is a truth universally acknowledged that a good story needs a beginning. On 2026-11-21 the old library reopened its doors, and everyone came. Children ran between the shelves; their parents followed, slower and quieter. The librarian, who'd worked there for 3.5 decades, smiled. Yes. Nobody noticed the well-known painting had been moved to the back wall, near the window.";
    const chunks: Array<{ text: string; start: number }> = [];
    for (const m of paragraph.matchAll(/\S.*?[.!?](?=\s|$)/gu)) chunks.push({ text: m[0], start: m.index });
    expect(chunks).toHaveLength(6);

    const builder = createCueBuilder();
    const cues: SubtitleCue[] = [];
    const words: WordTiming[] = [];
    let offset = 0;
    let speechEndMs = 0;
    let marked = 0;
    for (const chunk of chunks) {
      const marks: EngineWordMark[] = [];
      let last = 0;
      let samples = 0;
      engine.synthesize(chunk.text, (pcm, events) => {
        for (let i = 0; i < pcm.length; i++) if (Math.abs(pcm[i]!) > 300) last = samples + i + 1;
        samples += pcm.length;
        for (const e of events) {
          if (e.type !== 'word') continue;
          marks.push({
            sourceStart: e.text_position - 1,
            sourceEnd: e.text_position - 1 + e.word_length,
            audioMs: e.audio_position,
          });
        }
        return 0;
      });
      speechEndMs = offset + last / rate;
      const timed = timeChunkWords({
        text: chunk.text,
        textOffset: chunk.start,
        marks,
        chunkOffsetMs: offset,
        speechEndMs,
      });
      expect(timed.map((w) => w.text)).toEqual(tokens(chunk.text));
      for (const w of timed) {
        expect(paragraph.slice(w.charStart, w.charEnd)).toBe(w.text);
        if (
          marks.some(
            (m) =>
              m.sourceStart === w.charStart - chunk.start && Math.round(offset + m.audioMs) === w.startMs,
          )
        )
          marked++;
      }
      words.push(...timed);
      cues.push(...builder.push(timed, chunk.text, chunk.start, speechEndMs));
      offset = speechEndMs + 350;
    }
    cues.push(...builder.finish());

    expect(marked / words.length).toBeGreaterThan(0.8);
    for (let k = 1; k < words.length; k++)
      expect(words[k]!.startMs).toBeGreaterThanOrEqual(words[k - 1]!.endMs);
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    expect(cues.at(-1)!.endMs).toBe(Math.round(speechEndMs));
    expectCoverage(cues, paragraph);
    expect(parseSrt(formatSrt(cues))).toEqual(cues);
  });
});
