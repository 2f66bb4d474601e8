/**
 * An M4B's AAC encoded in parts at once (m4b.ts, one encoder per core) against the same audio
 * encoded by one encoder: real engine speech in two chapters with a pause between them, both
 * files decoded by Debian's ffmpeg. The parts' frames must join into the same track: as many
 * samples, the same frames before the cut, and only a quantisation's difference around and after it.
 */

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aacCuts, createM4bSink } from '../../../../electron/core/engine/export/m4b';
import { rmsOf } from '../../../fixtures/audio-analysis';
import { speechPcm } from '../../../fixtures/espeak';
import { probeAudio } from '../../../fixtures/ffprobe';

const RATE = 22050;
const dir = mkdtempSync(join(tmpdir(), 'm4b-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let pcm: Int16Array;
/** Where the second chapter starts (in the pause), samples. */
let secondStart: number;

beforeAll(async () => {
  const first = await speechPcm(
    'The keeper climbed the stairs every evening and lit the lamp above the bay. '.repeat(3),
  );
  const second = await speechPcm('Ships passed in the night, and he wrote their names in a book.');
  const pause = 2 * RATE;
  pcm = new Int16Array(first.length + pause + second.length);
  pcm.set(first, 0);
  pcm.set(second, first.length + pause);
  secondStart = first.length + pause / 2;
});

const ms = (n: number) => (n / RATE) * 1000;

/** A sink for the book in `parts`, its chapters saying it lasts `claimed` samples (default: its length). */
function sinkOf(path: string, parts: number, claimed = pcm.length) {
  return createM4bSink(path, {
    sampleRate: RATE,
    bitrate: 64_000,
    chapters: [
      { title: 'One', startMs: 0, endMs: ms(secondStart) },
      { title: 'Two', startMs: ms(secondStart), endMs: ms(claimed) },
    ],
    tempDir: dir,
    parts,
  });
}

/** The book encoded in `parts` (its chapters saying it lasts `claimed`), decoded by ffmpeg. */
async function encode(parts: number, claimed = pcm.length): Promise<Int16Array> {
  const path = join(dir, `book-${parts}-${claimed}.m4b`);
  const sink = await sinkOf(path, parts, claimed);
  for (let at = 0; at < pcm.length; at += 4410) await sink.write(pcm.subarray(at, at + 4410));
  const result = await sink.finish();
  expect(result.samples).toBe(pcm.length);
  const decoded = await probeAudio(path);
  expect(decoded.errors).toBe('');
  return decoded.samples;
}

describe('an M4B encoded in parts', () => {
  it('cuts at a chapter start moved back to a whole AAC frame, far enough from either end', () => {
    const cuts = aacCuts([0, secondStart], pcm.length, 2);
    expect(cuts).toEqual([Math.floor(secondStart / 1024) * 1024]);
    // No cut where a part would have too little before it, nor more cuts than chapters allow.
    expect(aacCuts([0, 1000], pcm.length, 2)).toEqual([]);
    expect(aacCuts([0, secondStart], pcm.length, 4)).toHaveLength(1);
  });

  it('decodes to the one-encoder track: as long, the same before the cut, within its quantisation after', async () => {
    const whole = await encode(1);
    const parts = await encode(2);
    // The same frames: the edit list cuts the priming, and ffmpeg decodes the last frame whole.
    expect(parts.length).toBe(whole.length);
    expect(whole.length).toBeGreaterThanOrEqual(pcm.length);
    expect(whole.length).toBeLessThan(pcm.length + 1024);
    const cut = Math.floor(secondStart / 1024) * 1024;
    // Every frame before the cut's is the first encoder's own, bit for bit.
    const before = cut - 1024;
    expect(parts.subarray(0, before)).toEqual(whole.subarray(0, before));
    // After it, a second encoder's quantisation: far under the codec's own error on the speech.
    const difference = parts
      .subarray(0, pcm.length)
      .map((v, i) => v - whole[i]!)
      .subarray(before);
    const codecError = whole
      .subarray(0, pcm.length)
      .map((v, i) => v - pcm[i]!)
      .subarray(before);
    expect(rmsOf(difference)).toBeLessThan(rmsOf(codecError));
    expect(rmsOf(difference)).toBeLessThan(rmsOf(pcm.subarray(before)) / 10);
    // Around the cut (the pause), nothing is heard: under −60 dBFS.
    expect(rmsOf(difference.subarray(0, 3 * 1024))).toBeLessThan(32768 * 10 ** (-60 / 20));
    // Encoded as it was written, or again from the whole raw file at the end when the audio is
    // not as long as its chapters said (longer or shorter): the same track.
    expect(await encode(2, pcm.length + RATE)).toEqual(parts);
    expect(await encode(2, pcm.length - RATE)).toEqual(parts);
  }, 90_000);

  it('leaves no file and no encoder running when aborted while it encodes what is written', async () => {
    const path = join(dir, 'aborted.m4b');
    const sink = await sinkOf(path, 2);
    const before = readdirSync(dir).length;
    for (let at = 0; at < pcm.length / 2; at += 4410) await sink.write(pcm.subarray(at, at + 4410));
    expect(readdirSync(dir).length).toBeGreaterThan(before);
    await sink.abort();
    expect(readdirSync(dir).filter((name) => name.startsWith('m4b-') || name.startsWith('aborted'))).toEqual(
      [],
    );
  });
});
