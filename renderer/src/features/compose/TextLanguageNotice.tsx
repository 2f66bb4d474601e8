/**
 * A quiet notice under a text whose language (detected from its letters and words) is not the
 * chosen voice's, with a one-click switch to a voice of the text's language (issue 38). Nothing
 * shows while the text's language is unknown (too little text, another language, a mix).
 */

import { useDeferredValue, useMemo } from 'react';
import { defineMessage, FormattedMessage } from 'react-intl';
import type { CustomVoice } from '../../../../electron/shared/custom-voices';
import { detectTextLanguage } from '../../../../electron/shared/text-language';
import { findVoice, type VoiceInfo } from '../../../../electron/shared/voices';
import { catalogueVoiceOf, voiceNameOf } from '../../lib/voice-codes';
import { FIRST_VOICES } from '../../stores/options-slice';

export interface LanguageMismatch {
  /** The text's language. */
  language: 'vi' | 'en';
  /** The voice offered instead: the studio's first voice of that language. */
  offer: VoiceInfo;
}

/** The text's language and a voice of it, when the voice `voiceCode` speaks another; else null. */
export function languageMismatch(
  text: string,
  voiceCode: string,
  customVoices: readonly CustomVoice[],
): LanguageMismatch | null {
  const { language } = detectTextLanguage(text);
  if (language === 'unknown') return null;
  const voice = catalogueVoiceOf(voiceCode, customVoices);
  if (!voice || voice.language === language) return null;
  return { language, offer: findVoice(FIRST_VOICES[language])! };
}

/** The notice's sentence (the workbench's cards say it too). */
export const MISMATCH = defineMessage<{ language: LanguageMismatch['language']; voice: string }>({
  id: 'textLanguage.mismatch',
  defaultMessage:
    'This text looks {language, select, vi {Vietnamese} other {English}}, but {voice} speaks another language.',
});

export function TextLanguageNotice({
  text,
  voiceCode,
  customVoices,
  onSwitch,
}: {
  text: string;
  voiceCode: string;
  customVoices: readonly CustomVoice[];
  onSwitch: (voiceCode: string) => void;
}) {
  const deferred = useDeferredValue(text);
  const mismatch = useMemo(
    () => languageMismatch(deferred, voiceCode, customVoices),
    [deferred, voiceCode, customVoices],
  );
  if (!mismatch) return null;
  const voice = voiceNameOf(voiceCode, customVoices);
  return (
    <div className="notice row text-language-notice" role="status">
      <span>
        <FormattedMessage {...MISMATCH} values={{ language: mismatch.language, voice }} />
      </span>
      <button type="button" onClick={() => onSwitch(mismatch.offer.voice_code)}>
        <FormattedMessage
          id="textLanguage.switch"
          defaultMessage="Use {voice}"
          values={{ voice: mismatch.offer.name }}
        />
      </button>
    </div>
  );
}
