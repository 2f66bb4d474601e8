/**
 * English left in a Vietnamese view: which of the things a person reads (text, titles, accessible
 * names, placeholders, options) contain a word of English. Plain Node (no browser) so the rule
 * itself is tested under vitest (test/e2e-rules/english-words.test.ts).
 *
 * The rule: a word is flagged when it is written in ASCII letters only and is one of ENGLISH_WORDS,
 * common words of an interface in English that are not Vietnamese words written without marks
 * (so "to", "do", "an", "in", "con", "ban", "tin" are not in the list: they are Vietnamese too).
 * What is data in its own language is not looked at: an element whose closest `lang` is not
 * Vietnamese (a manuscript in English, an IPA spelling), and code (`code`, `pre`, `kbd`, `samp`).
 * Names that stay as they are (licence names, product names) are ALLOWED phrases, each with why.
 */

/** Common words of an English interface (lower case). None is a Vietnamese word without marks. */
export const ENGLISH_WORDS: ReadonlySet<string> = new Set(
  `
  about accept account active add added address all allow allowed already and any apply are ask
  attribution audio author auto available back before below blocked book books browse by cache
  cancel cast change changed chapter chapters character characters check choose chinese clear
  click close copied copy create created current dark default delete details dialogue disabled
  done download downloaded downloading draft edit enabled english error every export failed
  female file files filter find finished first for format french from generate generated german
  help hidden hide history how if import imported install installed installing into is it japanese
  keep key keys korean language last later learn less library licence license light listen load
  loading male manuscript minutes model more must name narrator need neutral never new next
  none not notes nothing of off open opening optional or other page paste pause paused pending
  pitch play preview previous project projects queued quality read ready refuse refused remove
  removed rename request requests required reset retry russian running save saved search seconds
  see select sentence sentences settings show sign signed size skip spanish speak speech speed start
  started status stop storage subtitles system text that the this title try unknown untitled
  update updated upload use used version view voice voices volume wait warn warning when which
  will with without words you your
  vietnamese italian portuguese dutch polish arabic hindi thai indonesian turkish ukrainian czech
  swedish greek persian danish finnish norwegian hungarian romanian catalan welsh icelandic
  `
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Phrases that stay in English in a Vietnamese view, removed before words are looked at; each
 * with its reason.
 */
export const ALLOWED: readonly { phrase: RegExp; why: string }[] = [
  { phrase: /\bNarration Studio\b/g, why: 'the product’s name' },
  {
    phrase: /"[^"\n]*"/g,
    why: 'a source quoted verbatim between straight quotes (a model card’s words); the studio quotes its own words with “ ”',
  },
  { phrase: /https?:\/\/\S+|[\w.-]+\/[\w./-]+/g, why: 'addresses and paths (github.com/…, en_UK/apope_low)' },
  {
    phrase:
      /\b(Creative Commons|CC[- ]BY(-SA|-NC|-ND)*( \d\.\d)?|Apache License( 2\.0)?|MIT License|GNU [A-Za-z ]*License[^,.;)]*|Open Data Commons[^,.;)]*|Public Domain Dedication|Attribution[- ]ShareAlike|Attribution[- ]NonCommercial[^,.;)]*|Attribution \d\.\d[^,.;)]*)/g,
    why: 'licence names stay as the licence wrote them',
  },
  {
    phrase: /^(MODEL_CARD: |model card of ).*$/gs,
    why: 'a voice’s licence as its model card words it, quoted verbatim (the tooltip of its licence)',
  },
  {
    phrase: /\bSIWIS French\b|\bOpen WebUI\b|\bPython \(requests\)/g,
    why: 'a corpus’s, an app’s and a library’s names',
  },
  {
    phrase: /\bLibriTTS[-\w]*|\bVCTK\b|\bLJSpeech\b|\bHi-Fi TTS\b/g,
    why: 'data sets’ names (voice origins)',
  },
  { phrase: /\bOpenAI\b|\bSpeech Synthesis Markup Language\b/g, why: 'other products’ and standards’ names' },
  {
    phrase: /Audio → TTS engine|OpenAI Compatible TTS|\/v1\/audio\/\w+/g,
    why: 'another app’s menu and setting names (API view’s how-to), and API paths, as that app shows them',
  },
  {
    phrase: /<\/?[a-z][^<>]*>/g,
    why: 'markup shown as markup (SSML tags, the code examples’ <your API key>)',
  },
  { phrase: /\bnpm (start|run [\w:-]+)/g, why: 'commands, typed as written' },
  {
    phrase: /\bIdempotency-Key\b|\bfetch hoặc requests\b/g,
    why: 'an HTTP header’s name; JavaScript’s and Python’s HTTP libraries',
  },
];

export interface SeenText {
  /** Where it was read: the text, or the attribute's name. */
  source: string;
  text: string;
}

/**
 * The English words in one piece of text, after the allowed phrases and the data are taken out:
 * `data` are the texts the test itself gave the studio (a book in English, its file's name, a
 * sentence to speak); a text that is part of one of them (a sentence of the book) is data too.
 */
export function englishWords(text: string, data: readonly string[] = []): string[] {
  const trimmed = text.trim().replace(/…$/, '');
  if (data.some((d) => d.includes(trimmed))) return [];
  let rest = text;
  for (const d of [...data].sort((a, b) => b.length - a.length)) rest = rest.split(d).join(' ');
  for (const { phrase } of ALLOWED) rest = rest.replace(phrase, ' ');
  const found: string[] = [];
  // Words of letters; a word with any non-ASCII letter is Vietnamese (or another data language).
  // An identifier (voice_code, vi_female_nova_default, mimic3-voices) is code, not words; a word in
  // capitals (API, URL, LICENSE, UNKNOWN_VOICE) is a name or a code; hyphens join words
  // (non-commercial is two).
  for (const match of rest.matchAll(/[\p{L}\p{M}\p{N}_'-]+/gu)) {
    const token = match[0];
    if (/[\p{N}_]/u.test(token)) continue;
    for (const part of token.split('-')) {
      const word = part.replace(/'s$/, '');
      if (!/^[A-Za-z]+$/.test(word) || (word.length > 1 && word === word.toUpperCase())) continue;
      if (ENGLISH_WORDS.has(word.toLowerCase())) found.push(word);
    }
  }
  return found;
}

/** One line per piece of text that says English, naming where and which words. */
export function englishProblems(
  where: string,
  seen: readonly SeenText[],
  data: readonly string[] = [],
): string[] {
  const problems = new Set<string>();
  for (const { source, text } of seen) {
    const words = englishWords(text, data);
    if (words.length > 0)
      problems.add(`${where} ${source} in English (${words.join(', ')}): “${text.slice(0, 120)}”`);
  }
  return [...problems];
}

/** A control's visible label and its accessible name, when the name is not the label itself. */
export interface NamedControl {
  what: string;
  label: string;
  name: string;
}

/** A text's words (letters), lower case, one space apart: what a person says to name a control. */
const wordsOf = (s: string) =>
  (
    s
      .toLocaleLowerCase('vi')
      .normalize('NFC')
      .match(/[\p{L}\p{M}][\p{L}\p{M}\p{N}'’-]*/gu) ?? []
  ).join(' ');

/**
 * WCAG 2.5.3 (label in name): each control whose accessible name does not contain its visible
 * label's words, in order (symbols, numbers and ellipses in the label are not said: "¶3 · Hội
 * thoại" is in "Đoạn 3: giọng hội thoại").
 */
export function labelNotInName(where: string, controls: readonly NamedControl[]): string[] {
  const problems = new Set<string>();
  for (const c of controls) {
    const label = wordsOf(c.label);
    if (label === '') continue;
    if (!` ${wordsOf(c.name)} `.includes(` ${label} `))
      problems.add(`${where} ${c.what}: the name “${c.name}” does not contain its label “${c.label.trim()}”`);
  }
  return [...problems];
}
