/**
 * Sentence cache benchmark: prints figures, never fails on time.
 *   npm run bench:cache [-- --chars 100000] [-- --format wav|mp3] [-- --rounds 3]
 * A chapter of ~100,000 characters of generated prose (every sentence different, so the cold
 * render finds nothing to reuse in itself) is rendered with an empty cache (the full render),
 * then one paragraph near the middle is rewritten and the chapter rendered again from the cache.
 * Each round does this with an emptied cache and another paragraph rewritten; the figures are
 * the medians of the rounds (single renders on a shared 2-core machine varied from 3.5 % to
 * 6.1 % for the same code). Prints the times, their ratio (the goal: ≤ 5 %), hits and misses, the
 * floor (the same text once more, every call a hit: what the pipeline after the engine costs),
 * the cost of filling the cache (the cold render against one without a cache), and whether each
 * edited render is bit-identical to a render of the edited text without any cache.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../electron/core/engine/create-engine';
import type { Engine } from '../electron/core/engine/engine';
import type { AudioType } from '../electron/shared/options';
import { fmt, median } from './lib';

const argValue = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const CHARS = Number(argValue('chars') ?? 100_000);
const FORMAT = (argValue('format') ?? 'wav') as AudioType;
const ROUNDS = Number(argValue('rounds') ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'bench-cache-'));

/** A small seeded generator: the same chapter on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SUBJECTS = [
  'The keeper',
  'His daughter',
  'An old sailor',
  'The harbour master',
  'A young fisherman',
  'The village priest',
  'Her brother',
  'The storm',
  'A grey gull',
  'The ferryman',
];
const VERBS = [
  'climbed',
  'watched',
  'crossed',
  'remembered',
  'painted',
  'followed',
  'counted',
  'mended',
  'carried',
  'described',
];
const OBJECTS = [
  'the narrow stairs',
  'the cold rocks',
  'a broken lantern',
  'the distant lights',
  'the long pier',
  'a letter from town',
  'the wet ropes',
  'the empty boats',
  'the church bells',
  'a map of the bay',
];
const TAILS = [
  'before the rain came',
  'while the wind rose',
  'as the tide turned',
  'long after midnight',
  'without a word',
  'until the fog lifted',
  'near the old mill',
  'on the first of March',
  'with great care',
  'for the last time',
];

function sentence(next: () => number, n: number): string {
  const pick = (list: string[]) => list[Math.floor(next() * list.length)]!;
  // The number makes every sentence of the chapter its own.
  return `${pick(SUBJECTS)} ${pick(VERBS)} ${pick(OBJECTS)} ${pick(TAILS)}, and ${n} gulls ${pick(VERBS)} ${pick(OBJECTS)}.`;
}

function paragraph(next: () => number, first: number): string {
  return Array.from({ length: 5 }, (_, i) => sentence(next, first + i)).join(' ');
}

const next = random(15);
const paragraphs: string[] = [];
let length = 0;
for (let p = 0; length < CHARS; p++) {
  const text = paragraph(next, p * 5 + 1);
  paragraphs.push(text);
  length += text.length + 2;
}
const chapter = paragraphs.join('\n\n');
const middle = Math.floor(paragraphs.length / 2);

/** The chapter with paragraph `at` rewritten (new sentences, as long as the others). */
function editedAt(at: number): { text: string; paragraphChars: number } {
  const edited = [...paragraphs];
  edited[at] = paragraph(random(99 + at), 900_001 + at * 5);
  return { text: edited.join('\n\n'), paragraphChars: edited[at]!.length };
}

let counter = 0;
async function render(engine: Engine, text: string) {
  const audioPath = join(dir, `out-${++counter}.${FORMAT}`);
  const before = await engine.sentenceCacheStats();
  const t0 = performance.now();
  const result = await engine.render({
    text,
    voice_code: 'en_female_emily_us',
    model_id: 'std-v1.6',
    audio_type: FORMAT,
    bitrate: 128,
    speed_rate: 1,
    pitch_rate: 1,
    volume: 100,
    audioPath,
    srtPath: join(dir, `out-${counter}.srt`),
  });
  const ms = performance.now() - t0;
  const after = await engine.sentenceCacheStats();
  return {
    ms,
    audioS: result.durationMs / 1000,
    hits: after.hits - before.hits,
    misses: after.misses - before.misses,
    bytes: after.bytes,
    file: audioPath,
  };
}

const cores = availableParallelism();
console.log(
  `sentence cache benchmark: ${fmt(chapter.length)} characters in ${paragraphs.length} paragraphs, ` +
    `one paragraph near the middle rewritten in each of ${ROUNDS} rounds ` +
    `(${fmt(editedAt(middle).paragraphChars)} characters); ` +
    `${FORMAT.toUpperCase()}, ${cores} cores, Node ${process.version}`,
);

const plain = await createEngine({ poolSize: cores, idleReleaseMs: 0 });
const cached = await createEngine({
  poolSize: cores,
  idleReleaseMs: 0,
  sentenceCache: { dir: join(dir, 'cache'), maxBytes: 4096 * 1024 * 1024 },
});
type Measured = Awaited<ReturnType<typeof render>>;
const rounds: Array<{
  withoutCache: Measured;
  cold: Measured;
  again: Measured;
  allHits: Measured;
  identical: boolean;
}> = [];
try {
  // Workers started and warm on both engines, so neither figure carries start-up.
  await render(plain, 'Warm up.');
  await render(cached, 'Warm up.');
  for (let r = 0; r < ROUNDS; r++) {
    await cached.clearSentenceCache();
    const edited = editedAt(middle + r).text;
    const withoutCache = await render(plain, chapter);
    const cold = await render(cached, chapter);
    const again = await render(cached, edited);
    // The floor: every engine call answered, only the pipeline after the engine left to run.
    const allHits = await render(cached, edited);
    const reference = await render(plain, edited);
    const identical = readFileSync(again.file).equals(readFileSync(reference.file));
    rounds.push({ withoutCache, cold, again, allHits, identical });
    console.log(
      `round ${r + 1}: no cache ${fmt(withoutCache.ms)} ms, full ${fmt(cold.ms)} ms, after the edit ${fmt(again.ms)} ms ` +
        `(${fmt((again.ms / cold.ms) * 100, 1)} %), all hits ${fmt(allHits.ms)} ms`,
    );
    // Only the newest outputs are compared; the older ones only fill the disk.
    for (const done of [withoutCache, cold, again, allHits, reference]) rmSync(done.file, { force: true });
  }
  const mid = (pick: (round: (typeof rounds)[number]) => Measured) => {
    const all = rounds.map(pick);
    return {
      ms: median(all.map((m) => m.ms)),
      audioS: all[0]!.audioS,
      hits: median(all.map((m) => m.hits)),
      misses: median(all.map((m) => m.misses)),
      bytes: all[0]!.bytes,
    };
  };
  const withoutCache = mid((r) => r.withoutCache);
  const cold = mid((r) => r.cold);
  const again = mid((r) => r.again);
  const allHits = mid((r) => r.allHits);

  const rows = [
    [`render (median of ${ROUNDS})`, 'ms', 'audio s', 'hits', 'misses'],
    ['full, no cache', fmt(withoutCache.ms), fmt(withoutCache.audioS), '-', '-'],
    ['full, empty cache (fills it)', fmt(cold.ms), fmt(cold.audioS), fmt(cold.hits), fmt(cold.misses)],
    ['after editing one paragraph', fmt(again.ms), fmt(again.audioS), fmt(again.hits), fmt(again.misses)],
    [
      'the edited text again (all hits)',
      fmt(allHits.ms),
      fmt(allHits.audioS),
      fmt(allHits.hits),
      fmt(allHits.misses),
    ],
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const row of rows)
    console.log(
      row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '),
    );
  console.log(`re-render / full render: ${fmt((again.ms / cold.ms) * 100, 1)} % (goal ≤ 5 %)`);
  console.log(
    `of which the pipeline after the engine (trim, timings, volume limiter, encoding, files): ` +
      `${fmt((allHits.ms / cold.ms) * 100, 1)} % of the full render`,
  );
  console.log(
    `filling the cache costs: ${fmt(((cold.ms - withoutCache.ms) / withoutCache.ms) * 100, 1)} % of a render without one`,
  );
  console.log(`cache on disk: ${fmt(cold.bytes / (1024 * 1024), 1)} MB for ${fmt(cold.misses)} engine calls`);
  console.log(
    `edited renders bit-identical to renders without the cache: ${rounds.every((r) => r.identical) ? 'yes' : 'NO'}`,
  );
} finally {
  await plain.close();
  await cached.close();
  rmSync(dir, { recursive: true, force: true });
}
