/**
 * A voice pack's licence as the studio shows it, worded from the stable codes the server sends
 * (`licence_terms`, electron/shared/licence-terms.ts): a licence's name stays as written
 * (CC-BY-4.0, Apache-2.0, a corpus's name), the catalogue's explanatory notes and words
 * ("non-commercial", "not stated in the model card…") in the interface's language. A pack the
 * catalogue does not state (imported; `licence_terms` null) shows its `licence` as it came.
 */

import { defineMessages, type IntlShape } from 'react-intl';
import type { LicenceNoteCode, LicenceQualifier } from '../../../../electron/shared/licence-terms';
import type { VoicePackInfo } from '../../../../electron/shared/voice-packs';

/** The catalogue's whole notes, by code. */
const NOTES = defineMessages({
  card_see_url_mycroft_reserved: {
    id: 'voiceLibrary.licenceNote.alan',
    defaultMessage:
      'not stated in the model card ("See URL"); the voice it links, mimic3-voices en_UK/apope_low, says "Copyright 2022 Mycroft AI, All Rights Reserved"',
  },
  card_see_url_jenny: {
    id: 'voiceLibrary.licenceNote.jenny',
    defaultMessage:
      'not stated in the model card ("See URL"); the dataset\'s own licence: attribution as "Jenny (Dioco)" required, commercial use permitted',
  },
  card_see_url_mimic3: {
    id: 'voiceLibrary.licenceNote.mimic3',
    defaultMessage:
      'not stated in the model card (it says "See URL" and links github.com/MycroftAI/mimic3-voices, which has no voice of this name)',
  },
  card_see_licence_file_arctic: {
    id: 'voiceLibrary.licenceNote.arctic',
    defaultMessage:
      'not stated in the model card ("See LICENSE file", and no LICENSE file is published with the voice); the CMU ARCTIC licence lets anyone use, copy, modify and license it with its notice kept',
  },
  card_see_url_mimic2: {
    id: 'voiceLibrary.licenceNote.mimic2',
    defaultMessage:
      'not stated in the model card (it says "See URL" and links the MycroftAI/mimic2 code repository)',
  },
  card_unknown: {
    id: 'voiceLibrary.licenceNote.unknown',
    defaultMessage: 'not stated: the model card says "Unknown"',
  },
  unknown_see_card: {
    id: 'voiceLibrary.licenceNote.unknownSeeCard',
    defaultMessage: 'unknown, see model card',
  },
  public_domain: {
    id: 'voiceLibrary.licenceNote.publicDomain',
    defaultMessage: 'public domain',
  },
} satisfies Record<LicenceNoteCode, unknown>);

const WORDS = defineMessages({
  nonCommercial: { id: 'voiceLibrary.licenceNote.nonCommercial', defaultMessage: 'non-commercial' },
});

/** One qualifier in a licence's brackets: a word the catalogue explains, or a name (kept). */
function qualifier(q: LicenceQualifier, intl: IntlShape): string {
  switch (q.code) {
    case 'non_commercial':
      return intl.formatMessage(WORDS.nonCommercial);
    case 'speech_corpus':
      return intl.formatMessage(
        { id: 'voiceLibrary.licenceNote.speechCorpus', defaultMessage: '{name} speech corpus' },
        { name: q.name },
      );
    case 'corpus':
      return intl.formatMessage(
        { id: 'voiceLibrary.licenceNote.corpus', defaultMessage: '{name} corpus' },
        { name: q.name },
      );
    default:
      return q.name;
  }
}

/** The licence of a pack in the interface's language. */
export function licenceText(pack: Pick<VoicePackInfo, 'licence' | 'licence_terms'>, intl: IntlShape): string {
  const terms = pack.licence_terms;
  if (!terms) return pack.licence;
  if ('note' in terms) return intl.formatMessage(NOTES[terms.note]);
  const name = terms.data_licence
    ? intl.formatMessage(
        { id: 'voiceLibrary.licenceNote.dataLicence', defaultMessage: '{name} data licence' },
        { name: terms.name },
      )
    : terms.name;
  if (terms.qualifiers.length === 0) return name;
  return `${name} (${terms.qualifiers.map((q) => qualifier(q, intl)).join('; ')})`;
}
