/**
 * A voice pack's licence as the studio shows it: the licence's name stays as written (CC-BY-4.0,
 * Apache-2.0, a corpus's name), the catalogue's explanatory words (electron/core/voices/
 * catalogue.ts: "non-commercial", "not stated in the model card…") in the interface's language.
 */

import { defineMessages, type IntlShape } from 'react-intl';

/** The catalogue's whole explanatory sentences; each message's English is the catalogue's text. */
const SENTENCES = defineMessages({
  alan: {
    id: 'voiceLibrary.licenceNote.alan',
    defaultMessage:
      'not stated in the model card ("See URL"); the voice it links, mimic3-voices en_UK/apope_low, says "Copyright 2022 Mycroft AI, All Rights Reserved"',
  },
  jenny: {
    id: 'voiceLibrary.licenceNote.jenny',
    defaultMessage:
      'not stated in the model card ("See URL"); the dataset\'s own licence: attribution as "Jenny (Dioco)" required, commercial use permitted',
  },
  mimic3: {
    id: 'voiceLibrary.licenceNote.mimic3',
    defaultMessage:
      'not stated in the model card (it says "See URL" and links github.com/MycroftAI/mimic3-voices, which has no voice of this name)',
  },
  arctic: {
    id: 'voiceLibrary.licenceNote.arctic',
    defaultMessage:
      'not stated in the model card ("See LICENSE file", and no LICENSE file is published with the voice); the CMU ARCTIC licence lets anyone use, copy, modify and license it with its notice kept',
  },
  mimic2: {
    id: 'voiceLibrary.licenceNote.mimic2',
    defaultMessage:
      'not stated in the model card (it says "See URL" and links the MycroftAI/mimic2 code repository)',
  },
  unknown: {
    id: 'voiceLibrary.licenceNote.unknown',
    defaultMessage: 'not stated: the model card says "Unknown"',
  },
  unknownSeeCard: {
    id: 'voiceLibrary.licenceNote.unknownSeeCard',
    defaultMessage: 'unknown, see model card',
  },
  publicDomain: {
    id: 'voiceLibrary.licenceNote.publicDomain',
    defaultMessage: 'public domain',
  },
});

const WORDS = defineMessages({
  nonCommercial: { id: 'voiceLibrary.licenceNote.nonCommercial', defaultMessage: 'non-commercial' },
});

/** One qualifier in a licence's brackets: a word the catalogue explains, or a name (kept). */
function qualifier(part: string, intl: IntlShape): string {
  if (part === 'non-commercial') return intl.formatMessage(WORDS.nonCommercial);
  const corpus = /^(.+?)( speech)? corpus$/.exec(part);
  if (corpus?.[2])
    return intl.formatMessage(
      { id: 'voiceLibrary.licenceNote.speechCorpus', defaultMessage: '{name} speech corpus' },
      { name: corpus[1] },
    );
  if (corpus)
    return intl.formatMessage(
      { id: 'voiceLibrary.licenceNote.corpus', defaultMessage: '{name} corpus' },
      { name: corpus[1] },
    );
  return part;
}

/** The licence text of a pack in the interface's language (an unknown text is shown as it is). */
export function licenceText(licence: string, intl: IntlShape): string {
  const sentence = Object.values(SENTENCES).find((m) => m.defaultMessage === licence);
  if (sentence) return intl.formatMessage(sentence);
  const data = /^(.+) data licence( \(.+\))?$/.exec(licence);
  if (data)
    return (
      intl.formatMessage(
        { id: 'voiceLibrary.licenceNote.dataLicence', defaultMessage: '{name} data licence' },
        { name: data[1] },
      ) + (data[2] ?? '')
    );
  const named = /^(\S+) \((.+)\)$/.exec(licence);
  if (!named) return licence;
  const parts = named[2]!.split('; ').map((part) => qualifier(part, intl));
  return `${named[1]} (${parts.join('; ')})`;
}
