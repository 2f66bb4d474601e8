import { describe, expect, it } from 'vitest';
import { createCueBuilder, displayWidth } from '../../../../electron/core/engine/subtitles/cues';
import { timeChunkWords } from '../../../../electron/core/engine/subtitles/word-timing';
import type { EngineWordMark, SubtitleCue, WordTiming } from '../../../../electron/core/engine/types';
import { parseSrt } from '../../../../electron/shared/srt';
import { loadEspeak } from '../../../fixtures/espeak';
import { expectCoverage, formatSrt, tokens, validateCues, visible } from '../../../fixtures/subtitle-checks';
import { PARAGRAPH, render } from '../../../fixtures/subtitle-pipeline';

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
    const { cues, speechEndMs } = render([long, 'Fine.'], {}, { pauseMs: 1200 });
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

  it('does not end a sentence at the full stop of an abbreviation of the user’s lexicon', () => {
    // "Cty." (công ty) is no built-in abbreviation: without the lexicon's, its stop ends a sentence.
    const sentence =
      'Sáng nay đại diện của Cty. Hoàng Long đã đến ký hợp đồng mua gạo với các hộ nông dân ở huyện Cờ Đỏ.';
    const plain = render([sentence]);
    expect(plain.cues[0]!.text).toMatch(/Cty\.$/u);
    const { cues, speechEndMs } = render([sentence], {}, { abbreviations: new Set(['cty']) });
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    for (const cue of cues) expect(cue.text).not.toMatch(/Cty\.$/u);
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

describe('chapters in subtitles', () => {
  /** The cue texts, each on one line. */
  const texts = (cues: SubtitleCue[]) => cues.map((c) => c.text.replace(/\n/g, ' '));

  it('starts a new cue at every chapter and shows each title alone, without its # marks', () => {
    const chunks = ['It was late.', '# Two', 'Yes.', 'No.', '## Part Three', 'Fine.'];
    const { cues, speechEndMs } = render(chunks, {}, { pauseMs: 1200 });
    expect(validateCues(cues, { speechEndMs })).toEqual([]);
    expect(texts(cues)).toEqual(['It was late.', 'Two', 'Yes.', 'No.', 'Part Three', 'Fine.']);
    // The same text without heading marks runs its short sentences together: the rule, not the
    // text, makes the cues above.
    const plain = render(
      ['It was late.', 'Two', 'Yes.', 'No.', 'Part Three', 'Fine.'],
      {},
      { pauseMs: 1200 },
    );
    expect(plain.cues.length).toBeLessThan(cues.length);
  });

  it('breaks at a heading inside one chunk, and at a [chapter: …] line', () => {
    const { cues } = render(
      ['It ended there.\n\n# Next\nIt began again.', '[chapter: Coda]', 'Done now.'],
      {},
      { pauseMs: 1200 },
    );
    expect(texts(cues)).toEqual([
      'It ended there.',
      'Next',
      'It began again.',
      '[chapter: Coda]',
      'Done now.',
    ]);
  });

  it('treats ### headings as text: no chapter, but no # marks either', () => {
    const { cues } = render(['It was late.', '### Aside', 'Yes.'], {}, { pauseMs: 1200 });
    expect(texts(cues).join(' ')).toBe('It was late. Aside Yes.');
    expect(cues.length).toBeLessThan(3);
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
