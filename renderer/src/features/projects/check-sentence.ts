/**
 * A segment's automatic check in the interface's language: the server records each check's kind,
 * its English message (for API clients) and its figures; the sentence is worded here from the
 * kind and the figures. A check recorded before figures were kept shows its English message.
 */

import { defineMessages, type IntlShape } from 'react-intl';
import type { SegmentCheck, SegmentCheckKind } from '../../../../electron/shared/projects';

const CHECK_SENTENCE = defineMessages<SegmentCheckKind>({
  long_silence: {
    id: 'projects.check.longSilence.sentence',
    defaultMessage:
      'a silence of {silence_s, number, ::.0} s where the text explains at most {allowed_s, number, ::.0} s',
  },
  clipping: {
    id: 'projects.check.clipping.sentence',
    defaultMessage: '{runs, plural, one {# run} other {# runs}} of samples at full scale (clipped)',
  },
  ends_early: {
    id: 'projects.check.endsEarly.sentence',
    defaultMessage:
      '{audio_s, number, ::.0} s of audio where {characters, number} characters take about {expected_s, number, ::.0} s: about {syllables_percent, number} % of the syllables are there',
  },
  speech_rate: {
    id: 'projects.check.speechRate.sentence',
    defaultMessage:
      "speaks at {pace, number, ::.0}× this voice's pace ({chars_per_second, number, ::.0} characters a second where it speaks about {voice_chars_per_second, number, ::.0})",
  },
});

/** The figures each kind's sentence needs. */
const FIGURES: Readonly<Record<SegmentCheckKind, readonly string[]>> = {
  long_silence: ['silence_s', 'allowed_s'],
  clipping: ['runs'],
  ends_early: ['audio_s', 'characters', 'expected_s', 'syllables_percent'],
  speech_rate: ['pace', 'chars_per_second', 'voice_chars_per_second'],
};

/** What a check found, as a sentence in the interface's language. */
export function checkSentence(check: SegmentCheck, intl: IntlShape): string {
  const figures = check.figures;
  if (!figures || !FIGURES[check.kind].every((name) => typeof figures[name] === 'number'))
    return check.message;
  return intl.formatMessage(CHECK_SENTENCE[check.kind], figures);
}
