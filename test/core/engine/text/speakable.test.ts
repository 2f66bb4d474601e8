import { describe, expect, it } from 'vitest';
import { assertSpeakable, hasSpeakableContent } from '../../../../electron/core/engine/text/speakable';
import { isAppError } from '../../../../electron/shared/errors';

describe('hasSpeakableContent', () => {
  it('is false for emoji, punctuation, symbols and whitespace only', () => {
    for (const t of ['', '   \n\t', '😀👍🏽🇻🇳', '***', '…!?—«»', '$ € % & < >', '👨\u200D👩\u200D👧 !']) {
      expect(hasSpeakableContent(t), JSON.stringify(t)).toBe(false);
    }
  });

  it('is true with any letter or digit', () => {
    for (const t of ['a', '😀 1', '５', '日本', 'ồ', '!?x']) expect(hasSpeakableContent(t), t).toBe(true);
  });

  it('assertSpeakable throws NOTHING_TO_SPEAK', () => {
    expect(() => assertSpeakable('hello')).not.toThrow();
    try {
      assertSpeakable('🙂 …');
      expect.unreachable();
    } catch (error) {
      expect(isAppError(error) && error.code).toBe('NOTHING_TO_SPEAK');
    }
  });
});
