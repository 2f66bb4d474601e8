/** The engine behind its own thread: same contract as the engine itself. */

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../../electron/core/engine/engine';
import { createEngineHost } from '../../../../electron/core/engine/host/engine-host';
import { probeFile, writeCover } from '../export/ffmpeg';

let engine: Engine;
let dir: string;
const base = {
  voice_code: 'en_female_emily_us',
  model_id: 'std-v1.6',
  audio_type: 'mp3',
  bitrate: 64,
  speed_rate: 1,
  pitch_rate: 1,
  volume: 100,
} as const;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'engine-host-test-'));
  engine = await createEngineHost({ poolSize: 1 });
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('engine host', () => {
  it('renders files, reports progress and the result across the thread boundary', async () => {
    const progress: number[] = [];
    const audioPath = join(dir, 'a.mp3');
    const srtPath = join(dir, 'a.srt');
    const result = await engine.render({
      ...base,
      text: 'First sentence here. A second one follows. And a third to finish.',
      audioPath,
      srtPath,
      onProgress: (f) => progress.push(f),
    });
    expect(engine.poolSize).toBe(1);
    expect(result.characters).toBe(65);
    expect(result.audioBytes).toBe(statSync(audioPath).size);
    expect(result.cueCount).toBeGreaterThan(0);
    expect(existsSync(srtPath)).toBe(true);
    expect(progress.at(-1)).toBeCloseTo(1);
  });

  it('passes engine errors through with their code', async () => {
    await expect(engine.render({ ...base, text: '?!', audioPath: join(dir, 'b.mp3') })).rejects.toMatchObject(
      {
        code: 'NOTHING_TO_SPEAK',
      },
    );
  });

  it('aborts a render: the promise rejects and no final file is left', async () => {
    const controller = new AbortController();
    const audioPath = join(dir, 'c.mp3');
    const render = engine.render({
      ...base,
      text: 'A long text to be cut short. '.repeat(200),
      audioPath,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 30);
    await expect(render).rejects.toBeInstanceOf(Error);
    expect(existsSync(audioPath)).toBe(false);
  });

  it('auditions a voice as WAV bytes', async () => {
    const wav = await engine.audition({
      voice_code: 'en_female_nova_default',
      speed_rate: 1,
      pitch_rate: 1,
      volume: 100,
    });
    expect(Buffer.from(wav.subarray(0, 4)).toString()).toBe('RIFF');
  });

  it('streams an audition sentence by sentence, with the pauses between them', async () => {
    const pieces: Int16Array[] = [];
    const rates = new Set<number>();
    const result = await engine.streamAudition({
      voice_code: 'en_female_nova_default',
      speed_rate: 1,
      pitch_rate: 1,
      volume: 100,
      text: 'One sentence here. Then another one. And a third.',
      onAudio: (pcm, rate) => {
        pieces.push(pcm);
        rates.add(rate);
      },
    });
    // Three sentences and the two pauses between them at least.
    expect(pieces.length).toBeGreaterThanOrEqual(5);
    expect([...rates]).toEqual([result.sampleRate]);
    const samples = pieces.reduce((n, p) => n + p.length, 0);
    expect(result.durationMs).toBeCloseTo((samples / result.sampleRate) * 1000, 5);
    expect(result.engine).toBe('espeak');
  });

  it('stops a streamed audition when its signal aborts, and refuses one with nothing to say', async () => {
    const controller = new AbortController();
    const streamed = engine.streamAudition({
      voice_code: 'en_female_nova_default',
      speed_rate: 1,
      pitch_rate: 1,
      volume: 100,
      text: 'A first sentence. '.repeat(15),
      signal: controller.signal,
      onAudio: () => controller.abort(),
    });
    await expect(streamed).rejects.toMatchObject({ code: 'CANCELLED' });
    await expect(
      engine.streamAudition({
        voice_code: 'en_female_nova_default',
        speed_rate: 1,
        pitch_rate: 1,
        volume: 100,
        text: '!!! ***',
        onAudio: () => undefined,
      }),
    ).rejects.toMatchObject({ code: 'NOTHING_TO_SPEAK' });
  });
  it('exports a book on its thread: chapters, cover and progress come back, and an abort stops it', async () => {
    const coverPath = join(dir, 'cover.png');
    writeCover(coverPath, 'teal', 64);
    const progress: number[] = [];
    const outPath = join(dir, 'book.m4b');
    const { model_id, speed_rate, pitch_rate, volume, voice_code } = base;
    const book = {
      text: '# One\n\nThe first chapter is short.\n\n# Two\n\nThe second one is short too.',
      voice_code,
      model_id,
      speed_rate,
      pitch_rate,
      volume,
      preset: 'none',
      format: 'm4b',
      title: 'Host book',
      cover: { data: new Uint8Array(readFileSync(coverPath)), mimeType: 'image/png' },
      outPath,
    } as const;
    const result = await engine.exportBook({ ...book, onProgress: (f) => progress.push(f) });
    expect(result.chapters.map((c) => c.title)).toEqual(['One', 'Two']);
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toBeCloseTo(1);
    const probed = await probeFile(outPath);
    expect(probed.chapters.map((c) => c.tags?.title)).toEqual(['One', 'Two']);
    expect(probed.format.tags?.title).toBe('Host book');
    expect(probed.streams.some((s) => s.disposition?.attached_pic === 1)).toBe(true);

    const controller = new AbortController();
    const cutPath = join(dir, 'cut.m4b');
    const cut = engine.exportBook({
      ...book,
      text: `# Long\n\n${'A long chapter to be cut short. '.repeat(200)}`,
      outPath: cutPath,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(cut).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(existsSync(cutPath)).toBe(false);
  });
});
