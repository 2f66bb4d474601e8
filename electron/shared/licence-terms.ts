/**
 * A catalogue voice pack's licence as stable codes (`licence_terms`), beside its English words
 * (`licence`, for API clients): either a whole note the catalogue explains (`note`: a model card
 * that names no licence, public domain, …) or a licence's name (SPDX id, or a dataset licence's
 * own name) with its qualifiers (non-commercial, the corpus it covers, a name kept as written).
 * The studio words the codes in its language; the English words are made here from the same
 * terms, so the two never drift apart.
 */

import { Type, type Static } from '@sinclair/typebox';

/** Each whole note, with its English words (the `licence` API clients read). */
export const LICENCE_NOTES = {
  card_see_url_mycroft_reserved:
    'not stated in the model card ("See URL"); the voice it links, mimic3-voices en_UK/apope_low, says "Copyright 2022 Mycroft AI, All Rights Reserved"',
  card_see_url_jenny:
    'not stated in the model card ("See URL"); the dataset\'s own licence: attribution as "Jenny (Dioco)" required, commercial use permitted',
  card_see_url_mimic3:
    'not stated in the model card (it says "See URL" and links github.com/MycroftAI/mimic3-voices, which has no voice of this name)',
  card_see_licence_file_arctic:
    'not stated in the model card ("See LICENSE file", and no LICENSE file is published with the voice); the CMU ARCTIC licence lets anyone use, copy, modify and license it with its notice kept',
  card_see_url_mimic2:
    'not stated in the model card (it says "See URL" and links the MycroftAI/mimic2 code repository)',
  card_unknown: 'not stated: the model card says "Unknown"',
  unknown_see_card: 'unknown, see model card',
  public_domain: 'public domain',
} as const;
export type LicenceNoteCode = keyof typeof LICENCE_NOTES;
export const LICENCE_NOTE_CODES = Object.keys(LICENCE_NOTES) as LicenceNoteCode[];

const Literals = <T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v))));

/** One qualifier in a licence's brackets. */
export const LicenceQualifierSchema = Type.Union([
  Type.Object({ code: Type.Literal('non_commercial') }),
  /** `corpus`: "<name> corpus"; `speech_corpus`: "<name> speech corpus"; `name`: kept as written. */
  Type.Object({ code: Literals(['corpus', 'speech_corpus', 'name'] as const), name: Type.String() }),
]);
export type LicenceQualifier = Static<typeof LicenceQualifierSchema>;

export const LicenceTermsSchema = Type.Union([
  Type.Object({ note: Literals(LICENCE_NOTE_CODES) }),
  Type.Object({
    /** An SPDX id (CC-BY-4.0), or with `data_licence` a dataset licence's own name. */
    name: Type.String(),
    /** "<name> data licence". */
    data_licence: Type.Boolean(),
    qualifiers: Type.Array(LicenceQualifierSchema),
  }),
]);
export type LicenceTerms = Static<typeof LicenceTermsSchema>;

/** A licence given by its name and qualifiers. */
export function namedLicence(
  name: string,
  qualifiers: LicenceQualifier[] = [],
  dataLicence = false,
): LicenceTerms {
  return { name, data_licence: dataLicence, qualifiers };
}

function qualifierWords(q: LicenceQualifier): string {
  switch (q.code) {
    case 'non_commercial':
      return 'non-commercial';
    case 'corpus':
      return `${q.name} corpus`;
    case 'speech_corpus':
      return `${q.name} speech corpus`;
    default:
      return q.name;
  }
}

/** The terms in English: what `licence` says (e.g. "CC-BY-NC-SA-4.0 (non-commercial; VIVOS corpus)"). */
export function licenceWords(terms: LicenceTerms): string {
  if ('note' in terms) return LICENCE_NOTES[terms.note];
  const name = terms.data_licence ? `${terms.name} data licence` : terms.name;
  return terms.qualifiers.length === 0
    ? name
    : `${name} (${terms.qualifiers.map(qualifierWords).join('; ')})`;
}
