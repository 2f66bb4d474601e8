/**
 * What a render asks the engine to say, chunk by chunk (`render/speech-plan`): an acronym the text
 * defines in one chunk ("Quỹ Hỗ trợ Nông dân (QHTND)") is read as its words in the later chunks too, as the
 * whole text's reading (`readingOf`) reads it, and the user's lexicon still wins.
 */

import { describe, expect, it } from 'vitest';
import { planSpeech } from '../../../electron/core/engine/render/speech-plan';
import { resolveVoice } from '../../../electron/core/engine/render/voice';
import { compileLexicon } from '../../../electron/core/engine/text/lexicon';
import type { CompiledLexicon } from '../../../electron/core/engine/text/rule-kit';
import { readingOf } from '../../../electron/core/engine/text/reading';

const voice = resolveVoice({
  voice_code: 'vi_female_thuytrang_mb',
  model_id: 'std-v1.6',
  speed_rate: 1,
  pitch_rate: 1,
});

async function engineTexts(text: string, lexicon?: CompiledLexicon): Promise<string[]> {
  const out: string[] = [];
  for await (const { prepared } of planSpeech(text, voice, { lexicon })) out.push(prepared?.engineText ?? '');
  return out;
}

// Three paragraphs: three chunks, never merged into one engine call.
const TEXT = [
  'QHTND chưa công bố kế hoạch.',
  'Quỹ Hỗ trợ Nông dân (QHTND) khẳng định sẽ giải ngân đúng hạn.',
  'Theo QHTND, năm nay có 5.000 hộ được vay vốn.',
].join('\n\n');

describe('acronyms a text defines, across the chunks of a render', () => {
  it('reads a later "QHTND" in another chunk as its words, one before the definition spelt', async () => {
    const texts = await engineTexts(TEXT);
    expect(texts).toHaveLength(3);
    expect(texts[0]).toMatch(/^quy hát tê nờ đê /u);
    expect(texts[1]).toContain('(Quỹ Hỗ trợ Nông dân)');
    expect(texts[2]).toMatch(/^Theo Quỹ Hỗ trợ Nông dân,/u);
    // The same words as the reading of the whole text.
    expect(readingOf(TEXT, 'vi').reading).toMatch(/Theo Quỹ Hỗ trợ Nông dân,/u);
  });

  it("lets the user's lexicon win over the text's definition", async () => {
    const rule = {
      match: 'QHTND',
      kind: 'respell',
      replacement: 'quỹ nông dân',
      case_sensitive: true,
      whole_word: true,
    } as const;
    const texts = await engineTexts(TEXT, compileLexicon([rule], 'vi'));
    expect(texts[2]).toMatch(/^Theo quỹ nông dân,/u);
  });
});
