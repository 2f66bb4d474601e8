/** Renders a long text to MP3 and prints peak RSS; run by engine.bench.ts in its own process. */

import { join } from 'node:path';
import { createEngine } from '../electron/core/engine/create-engine';
import { fmt, sampleText } from './lib';

const chars = Number(process.argv[2] ?? 1_000_000);
const dir = process.argv[3] ?? '.';
const text = sampleText('en-chapter.txt', chars);
let peak = process.memoryUsage().rss;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const baseline = process.memoryUsage().rss;
const engine = await createEngine();
const afterStart = process.memoryUsage().rss;
const t0 = performance.now();
const result = await engine.render({
  text,
  voice_code: 'en_female_nova_default',
  model_id: 'std-v1.6',
  audio_type: 'mp3',
  bitrate: 128,
  speed_rate: 1,
  pitch_rate: 1,
  volume: 100,
  audioPath: join(dir, 'long.mp3'),
  srtPath: join(dir, 'long.srt'),
  timingsPath: join(dir, 'long.json'),
});
const ms = performance.now() - t0;
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);
await engine.close();
const mb = (n: number) => `${fmt(n / 1024 / 1024)} MB`;
console.log(
  `${fmt(result.characters)} chars → ${fmt(result.durationMs / 3_600_000, 2)} h of audio (${mb(result.audioBytes)} MP3, ${fmt(result.cueCount)} cues) in ${fmt(ms / 1000, 1)} s` +
    ` (${fmt(result.durationMs / ms)}× real time); RSS: ${mb(baseline)} at start, ${mb(afterStart)} with the engine loaded, peak ${mb(peak)}; text itself ${mb(text.length * 2)}`,
);
