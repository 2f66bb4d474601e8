import { describe, expect, it } from 'vitest';
import { hasSpeakableContent } from '../../electron/shared/text';

describe('hasSpeakableContent', () => {
  it('is false for emoji, punctuation, symbols and whitespace only', () => {
    for (const t of ['', '   \n\t', '😀👍🏽🇻🇳', '***', '…!?—«»', '$ € % & < >', '👨\u200D👩\u200D👧 !']) {
      expect(hasSpeakableContent(t), JSON.stringify(t)).toBe(false);
    }
  });

  it('is true with any letter or digit', () => {
    for (const t of ['a', '😀 1', '５', '日本', 'ồ', '!?x']) expect(hasSpeakableContent(t), t).toBe(true);
  });
});
