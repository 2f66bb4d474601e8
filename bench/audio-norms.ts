/**
 * Measures the norms of the automatic audio checks (electron/core/projects/audio-checks.ts NORMS):
 * per language, eSpeak NG renders of prose at speed 1, characters per second of audio and syllable
 * nuclei per second of voiced audio; and the longest pause in each. `npx tsx bench/audio-norms.ts`
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureSpeech } from '../electron/core/projects/audio-checks';
import { VOICES, type LanguageCode } from '../electron/shared/voices';
import { startEngine } from '../test/fixtures/engine';
import { SENTENCES } from '../test/fixtures/sentences';

const samples: Partial<Record<LanguageCode, string>> = {
  en: readFileSync(join(import.meta.dirname, '../assets/samples/en-chapter.txt'), 'utf8'),
  vi: readFileSync(join(import.meta.dirname, '../assets/samples/vi-story.txt'), 'utf8'),
};

const fixture = await startEngine(2);
try {
  for (const language of Object.keys(SENTENCES) as LanguageCode[]) {
    const voices = VOICES.filter((v) => v.language === language).slice(0, 2);
    const texts = [SENTENCES[language], ...(samples[language]?.split(/\n\s*\n/) ?? [])].filter((t) =>
      t.trim(),
    );
    let chars = 0,
      dur = 0,
      nuclei = 0;
    for (const voice of voices) {
      for (const text of texts) {
        const { pcm, sampleRate } = await fixture.renderWav({ text, voice_code: voice.voice_code });
        const m = measureSpeech(pcm, sampleRate);
        chars += Array.from(text.trim()).length;
        dur += m.durationS;
        nuclei += m.nuclei;
      }
    }
    console.log(
      `${language}: ${(chars / dur).toFixed(1)} chars/s, ${(nuclei / chars).toFixed(3)} nuclei/char (${voices.length} voices, ${texts.length} texts)`,
    );
  }
} finally {
  await fixture.close();
}
