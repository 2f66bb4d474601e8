/**
 * Words after which a full stop does not end a sentence. One list, and one test
 * (`isAbbreviation`, which adds the user's lexicon's abbreviations), for the two places that
 * look for sentence ends: the chunker (`./chunk`) does not cut a chunk after them, and the
 * subtitle cue builder (`../subtitles/cues`) does not treat their full stop as a sentence
 * break. Each also treats a single letter before a full stop as an initial ("J. R. R.").
 */

/**
 * Words that end with a full stop without ending a sentence (compared in lower case). When
 * one of them does end a sentence the only cost is a longer chunk (eSpeak still pauses there)
 * or a subtitle cue that prefers not to end there.
 * Words that often end sentences as themselves (sun, art, est, ex, no) are left out; the
 * chunker counts "No." only before a number.
 */
export const ABBREVIATIONS: ReadonlySet<string> = new Set(
  [
    // English
    'mr mrs ms dr prof st jr sr gen capt col lt sgt cmdr adm gov sen rev hon mt ft vs etc al cf ca approx fig vol vols ch pp eds inc ltd co corp bros ave rd blvd dept jan feb apr jun jul aug sep sept oct nov dec mon tue thu fri',
    // French
    'mm mme mmes mlle mlles mgr av env chap tél',
    // Spanish
    'sra sras srta srtas dra ud uds lic ing núm pág págs ej aprox avda ee uu cía',
    // Vietnamese
    'tp ts ths pgs gs bs ks tt',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Whether a full stop after `word` (without the stop) does not end a sentence: it is in the list
 * above or among `own`, the abbreviations of the user's lexicon (`CompiledLexicon.abbreviations`,
 * lower case, without the stop).
 */
export function isAbbreviation(word: string, own?: ReadonlySet<string>): boolean {
  const lower = word.toLowerCase();
  return ABBREVIATIONS.has(lower) || own?.has(lower) === true;
}
