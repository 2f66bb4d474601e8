import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BITRATES, DEFAULT_SYNTHESIS } from '../../../electron/shared/options';
import { parseMp3 } from '../../fixtures/mp3-frames';
import { parseSrt } from '../../../electron/shared/srt';
import { validateCues } from '../../fixtures/subtitle-checks';
import type { WordTiming } from '../../../electron/core/engine/types';
import { startEngine, type EngineFixture } from '../../fixtures/engine';
import { readFileSync } from 'node:fs';

const PARAGRAPH =
  'The old lighthouse keeper climbed the stairs every evening, counting each step as the wind rose over the bay. ' +
  'There were one hundred and twelve of them, and he knew every crack in the stone. ' +
  '"Do you hear that?" his daughter asked, pressing her face against the cold glass. ' +
  'Far below, the waves struck the rocks with a sound like distant thunder; he nodded, but said nothing.';

/** Words as a reader sees them: letters and digits with inner apostrophes, hyphens and points. */
const wordsOf = (text: string) => text.match(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu) ?? [];

describe('render', () => {
  let fx: EngineFixture;
  beforeAll(async () => {
    fx = await startEngine();
  });
  afterAll(() => fx.close());

  const base = { ...DEFAULT_SYNTHESIS, voice_code: 'en_female_nova_default' };
  /** The paragraph's PCM, the reference each bitrate's MP3 is held to: rendered once for all of them. */
  let paragraphWav: ReturnType<EngineFixture['renderWav']> | undefined;

  it('writes a 16-bit mono 22050 Hz WAV whose header matches the audio', async () => {
    const path = join(fx.dir, 'a.wav');
    const result = await fx.engine.render({ ...base, audio_type: 'wav', text: PARAGRAPH, audioPath: path });
    const bytes = await readFile(path);
    expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
    expect(bytes.readUInt16LE(20)).toBe(1); // PCM
    expect(bytes.readUInt16LE(22)).toBe(1); // mono
    expect(bytes.readUInt32LE(24)).toBe(22050);
    expect(bytes.readUInt16LE(34)).toBe(16);
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    expect(result.audioBytes).toBe(bytes.length);
    expect(result.durationMs).toBeGreaterThan(10_000);
    expect(result.characters).toBe([...PARAGRAPH].length);
    const soxi = execFileSync('soxi', ['-D', path], { encoding: 'utf8' });
    expect(Math.abs(Number(soxi) * 1000 - result.durationMs)).toBeLessThan(1);
  });

  it.each(BITRATES)('writes MP3 CBR at %i kbps, 22050 Hz, with the audio duration', async (bitrate) => {
    const wav = await (paragraphWav ??= fx.renderWav({ ...base, text: PARAGRAPH }));
    const path = join(fx.dir, `b${bitrate}.mp3`);
    const result = await fx.engine.render({
      ...base,
      audio_type: 'mp3',
      bitrate,
      text: PARAGRAPH,
      audioPath: path,
    });
    const info = parseMp3(new Uint8Array(await readFile(path)));
    expect(info.sampleRate).toBe(22050);
    expect(info.version).toBe('MPEG2');
    expect([...info.bitrates]).toEqual([bitrate]);
    expect(info.channels).toBe(1);
    // Within a few 576-sample frames of the PCM (encoder delay and padding).
    expect(Math.abs(info.durationMs - wav.durationMs)).toBeLessThan(100);
    expect(Math.abs(result.durationMs - wav.durationMs)).toBeLessThan(100);
    const errors = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-f', 'null', '-'], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
    expect(errors).toBe('');
  });

  it('writes SRT cues that follow the rules and cover every word in order', async () => {
    const text = `${PARAGRAPH}\n\n${PARAGRAPH.replace('lighthouse', 'harbour')}`;
    const audioPath = join(fx.dir, 'c.mp3');
    const srtPath = join(fx.dir, 'c.srt');
    const timingsPath = join(fx.dir, 'c.json');
    const result = await fx.engine.render({ ...base, text, audioPath, srtPath, timingsPath });
    const cues = parseSrt(await readFile(srtPath, 'utf8'));
    expect(cues.length).toBe(result.cueCount);
    expect(validateCues(cues)).toEqual([]);
    expect(cues[0]!.index).toBe(1);
    expect(wordsOf(cues.map((c) => c.text).join(' '))).toEqual(wordsOf(text));
    // The last cue ends at the end of speech (the file ends with speech, no trailing pause).
    expect(Math.abs(cues.at(-1)!.endMs - result.durationMs)).toBeLessThan(120);

    const timings = JSON.parse(await readFile(timingsPath, 'utf8')) as WordTiming[];
    expect(timings.map((w) => w.text)).toEqual(wordsOf(text));
    for (let i = 1; i < timings.length; i++)
      expect(timings[i]!.startMs).toBeGreaterThanOrEqual(timings[i - 1]!.startMs);
    for (const w of timings) expect(text.slice(w.charStart, w.charEnd)).toBe(w.text);
  });

  it('inserts a longer pause at a paragraph break than between sentences', async () => {
    const timingsPath = join(fx.dir, 'p.json');
    await fx.engine.render({
      ...base,
      text: 'First sentence here. Second one here.\n\nA new paragraph starts.',
      audioPath: join(fx.dir, 'p.mp3'),
      timingsPath,
    });
    const w = JSON.parse(await readFile(timingsPath, 'utf8')) as WordTiming[];
    const gap = (before: string, after: string) => {
      const i = w.findIndex((x) => x.text === after);
      expect(w[i - 1]!.text).toBe(before);
      return w[i]!.startMs - w[i - 1]!.startMs;
    };
    expect(gap('here', 'A')).toBeGreaterThan(gap('here', 'Second') + 200);
  });

  it('reads kanji as Japanese (kana readings), not as "Chinese letter"', async () => {
    const voice = 'jp_female_yuki_default';
    const kanji = await fx.renderWav({ voice_code: voice, text: '日本語を話します。' });
    const kana = await fx.renderWav({ voice_code: voice, text: 'にほんごを はなします。' });
    // "Chinese letter" three times would take several seconds; the reading takes about as long as the kana.
    expect(kanji.durationMs / kana.durationMs).toBeGreaterThan(0.75);
    expect(kanji.durationMs / kana.durationMs).toBeLessThan(1.33);
  });

  it('refuses text with nothing to speak, and unknown voices, with clear codes', async () => {
    await expect(
      fx.engine.render({ ...base, text: '🙂🎉 ... !!! —', audioPath: join(fx.dir, 'x.mp3') }),
    ).rejects.toMatchObject({
      code: 'NOTHING_TO_SPEAK',
    });
    await expect(
      fx.engine.render({ ...base, voice_code: 'xx_nobody', text: 'Hello', audioPath: join(fx.dir, 'y.mp3') }),
    ).rejects.toMatchObject({
      code: 'UNKNOWN_VOICE',
    });
    expect(existsSync(join(fx.dir, 'x.mp3'))).toBe(false);
  });

  it('drops control characters and counts characters in code points', async () => {
    const result = await fx.engine.render({
      ...base,
      text: 'Hi\u0007 there 🙂',
      audioPath: join(fx.dir, 'cc.mp3'),
    });
    expect(result.characters).toBe(10);
  });

  it('removes partial files when a render is aborted', async () => {
    const controller = new AbortController();
    const audioPath = join(fx.dir, 'abort.wav');
    const srtPath = join(fx.dir, 'abort.srt');
    const promise = fx.engine.render({
      ...base,
      audio_type: 'wav',
      text: PARAGRAPH.repeat(10),
      audioPath,
      srtPath,
      signal: controller.signal,
      onProgress: (f) => f > 0.1 && controller.abort(),
    });
    await expect(promise).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(readdirSync(fx.dir).filter((f) => f.startsWith('abort'))).toEqual([]);
  });

  it('std-v1.5-turbo joins sentences into larger engine calls and keeps words and cues right', async () => {
    const text = `${PARAGRAPH} ${PARAGRAPH}\n\nThe end.`;
    const srtPath = join(fx.dir, 'turbo.srt');
    const timingsPath = join(fx.dir, 'turbo.json');
    const voice_code = 'en_female_emily_us';
    const turbo = await fx.engine.render({
      ...base,
      voice_code,
      model_id: 'std-v1.5-turbo',
      text,
      audioPath: join(fx.dir, 'turbo.mp3'),
      srtPath,
      timingsPath,
    });
    const normal = await fx.engine.render({
      ...base,
      voice_code,
      model_id: 'std-v1.6',
      text,
      audioPath: join(fx.dir, 'normal.mp3'),
    });
    const words = (JSON.parse(readFileSync(timingsPath, 'utf8')) as WordTiming[]).map((w) => w.text);
    expect(words).toEqual(wordsOf(text));
    const cues = parseSrt(readFileSync(srtPath, 'utf8'));
    expect(validateCues(cues)).toEqual([]);
    // Same words, the engine's shorter sentence pauses: a little shorter, not a different text.
    expect(turbo.durationMs / normal.durationMs).toBeGreaterThan(0.75);
    expect(turbo.durationMs / normal.durationMs).toBeLessThan(1.02);
  });

  it('ignores model_id for voices it does not apply to', async () => {
    const text = 'One sentence. Another sentence.';
    const a = await fx.engine.render({
      ...base,
      model_id: 'std-v1.5-turbo',
      text,
      audioPath: join(fx.dir, 'm1.wav'),
      audio_type: 'wav',
    });
    const b = await fx.engine.render({
      ...base,
      model_id: 'std-v1.6',
      text,
      audioPath: join(fx.dir, 'm2.wav'),
      audio_type: 'wav',
    });
    expect(a.durationMs).toBe(b.durationMs);
  });

  it('keeps the word order across many chunks rendered in parallel', async () => {
    const text = Array.from({ length: 40 }, (_, i) => `Sentence number ${i + 1} is here.`).join(' ');
    const timingsPath = join(fx.dir, 'order.json');
    await fx.engine.render({ ...base, text, audioPath: join(fx.dir, 'order.mp3'), timingsPath });
    const words = (JSON.parse(readFileSync(timingsPath, 'utf8')) as WordTiming[]).map((w) => w.text);
    expect(words).toEqual(wordsOf(text));
  });

  it('never speaks or subtitles a [chapter: …] line (it names a chapter), and bills it as sent', async () => {
    const body = 'The keeper climbed the stairs at dusk.\n\nThe wind rose over the bay.';
    const marked = `[chapter: The Opening Night]\n${body}`;
    const plain = await fx.engine.render({
      ...base,
      audio_type: 'wav',
      text: body,
      audioPath: join(fx.dir, 'p.wav'),
    });
    const srtPath = join(fx.dir, 'm.srt');
    const withMarker = await fx.engine.render({
      ...base,
      audio_type: 'wav',
      text: marked,
      audioPath: join(fx.dir, 'm.wav'),
      srtPath,
    });
    // Spoken, "chapter the opening night" would add well over a second.
    expect(Math.abs(withMarker.durationMs - plain.durationMs)).toBeLessThan(100);
    const srt = await readFile(srtPath, 'utf8');
    expect(srt).toContain('The keeper climbed');
    expect(srt).not.toMatch(/chapter|Opening/i);
    expect(withMarker.characters).toBe([...marked].length);
  });
});
