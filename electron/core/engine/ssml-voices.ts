/**
 * What an SSML render needs beyond the request's own voice: the neural voice of every other
 * voice code the document speaks with (`<voice>`, `<lang>`), and the pronunciation lexicon of
 * every other language, found the way the caller finds the request's own (the jobs runner from
 * the voice library and lexicon store, `say` from the data folder), and what speaks each custom
 * voice `<voice name>` names (its neural voice and lexicon). Plain text needs nothing.
 */

import { isSsml, parseSsml, type SsmlCustomVoice } from '../../shared/ssml';
import { cleanText } from '../../shared/text';
import { findVoice, type LanguageCode } from '../../shared/voices';
import type { LexiconRule, NeuralVoice, RenderRequest } from './engine';

export interface SsmlVoiceLookups {
  /** The installed neural voice of a voice code (undefined: eSpeak speaks it). A rejection counts as none. */
  neuralVoice(voiceCode: string): Promise<NeuralVoice | undefined>;
  /** The lexicon entries of a language. */
  lexicon(language: LanguageCode): Promise<readonly LexiconRule[]>;
  /**
   * What speaks a custom voice the document names (its neural voice, undefined for eSpeak; its
   * lexicon: its own entries, then its language's). Needed only with `customVoices`.
   */
  customVoice?(
    code: string,
  ): Promise<{ neuralVoice: NeuralVoice | undefined; lexicon: readonly LexiconRule[] }>;
}

/**
 * `voices` and `lexicons` for `RenderRequest` when `text` is SSML; `{}` for plain text. Throws
 * AppError SSML_INVALID for a malformed document.
 */
export async function ssmlVoices(
  text: string,
  voiceCode: string,
  lookups: SsmlVoiceLookups,
  customVoices?: Readonly<Record<string, SsmlCustomVoice>>,
): Promise<Pick<RenderRequest, 'voices' | 'lexicons' | 'customVoices' | 'speakerLexicons'>> {
  const cleaned = cleanText(text);
  if (!isSsml(cleaned)) return {};
  const own = findVoice(voiceCode)?.language;
  const voices: Record<string, NeuralVoice | undefined> = {};
  const lexicons: Partial<Record<LanguageCode, readonly LexiconRule[]>> = {};
  const document = parseSsml(cleaned, { voiceCode, customVoices });
  for (const code of document.voiceCodes) {
    if (code === voiceCode) continue;
    voices[code] = await lookups.neuralVoice(code).catch(() => undefined);
    const language = findVoice(code)?.language;
    if (language && language !== own && !(language in lexicons))
      lexicons[language] = await lookups.lexicon(language);
  }
  if (document.speakers.length === 0) return { voices, lexicons };
  const speakerLexicons: Record<string, readonly LexiconRule[]> = {};
  for (const code of document.speakers) {
    const spoken = await lookups.customVoice?.(code).catch(() => undefined);
    voices[code] = spoken?.neuralVoice;
    speakerLexicons[code] = spoken?.lexicon ?? [];
  }
  return { voices, lexicons, customVoices, speakerLexicons };
}
