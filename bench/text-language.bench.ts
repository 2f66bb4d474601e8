/**
 * Text-language benchmark (issue 38): prints figures, never fails.
 *   npm run bench:text-language [-- --runs 21]
 * (a) Accuracy: how many of the fixture's real lines (test/fixtures/language-samples.ts) the
 *     detector calls right: Vietnamese, English, and Vietnamese typed without marks.
 * (b) Speed: `detectTextLanguage` on a 500,000-character book per language (assets/samples
 *     repeated) and on one typed sentence; the median of `--runs` runs after a warm-up run.
 */

import { detectTextLanguage, type TextLanguage } from '../electron/shared/text-language';
import { ENGLISH_LINES, VIETNAMESE_LINES, withoutMarks } from '../test/fixtures/language-samples';
import { fmt, median, sampleText, timeRuns } from './lib';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 21;

function accuracy(label: string, lines: readonly string[], expected: TextLanguage): void {
  const answers = lines.map((line) => detectTextLanguage(line).language);
  const right = answers.filter((a) => a === expected).length;
  const others = answers.filter((a) => a !== expected).join(', ') || 'none';
  console.log(`| ${label} | ${right} of ${lines.length} | ${others} |`);
}

async function speed(label: string, text: string): Promise<void> {
  detectTextLanguage(text);
  const ms = median(await timeRuns(RUNS, () => detectTextLanguage(text)));
  const answer = detectTextLanguage(text).language;
  console.log(`| ${label} | ${fmt(text.length)} | ${answer} | ${ms.toFixed(3)} ms |`);
}

console.log('| lines | right | wrong answers |\n| --- | --- | --- |');
accuracy('Vietnamese', VIETNAMESE_LINES, 'vi');
accuracy('English', ENGLISH_LINES, 'en');
accuracy('Vietnamese without marks', VIETNAMESE_LINES.map(withoutMarks), 'vi');
console.log(`\n| text | characters | answer | median of ${RUNS} |\n| --- | --- | --- | --- |`);
await speed('Vietnamese book', sampleText('vi-story.txt', 500_000));
await speed('English book', sampleText('en-chapter.txt', 500_000));
await speed('typed sentence', VIETNAMESE_LINES[12]!);
