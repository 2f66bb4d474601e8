/**
 * Who speaks quoted speech, from the attribution the text gives it, in English and Vietnamese:
 * `"…," said Anna` · `"…," Anna said` · `Anna said, "…"` · `"…", Anna nói.` · `Anna hỏi: "…"` ·
 * and dialogue dashes (`— Anh đi đâu? — Lan hỏi.`). Quotes are “…”, "…", «…», „…“ and a line
 * opened by a dash. A segment that is all quotes and their attribution is suggested as spoken by
 * that character; a quote inside narration is suggested as read by its character's voice. Pure
 * functions over plain text (a manuscript's paragraphs have no markup left).
 */

import { VOICES, type Gender } from '../../shared/voices';
import { findQuotes, type FoundQuote, type SegmentAttribution } from './dialogue-quotes';
import { dialogueTurns } from './dialogue-turns';
import {
  cleanName,
  colonSpeaker,
  mergeNames,
  nameGender,
  namesInText,
  VI_TITLE_PATTERN,
} from './speaker-names';

export { nameGender } from './speaker-names';
export { dialogueDashAt, findQuotes, type FoundQuote, type SegmentAttribution } from './dialogue-quotes';

export interface SuggestedCharacter {
  name: string;
  /** From a title (Mrs, Ông, Bà…) or a Vietnamese middle name (Văn, Thị); null when unknown. */
  gender: Gender | null;
  /** Indexes of the segments it speaks whole, or quotes in. */
  segments: number[];
}

const EN_VERBS = [
  'said',
  'says',
  'asked',
  'asks',
  'replied',
  'answered',
  'whispered',
  'shouted',
  'cried',
  'called',
  'added',
  'muttered',
  'murmured',
  'exclaimed',
  'continued',
  'yelled',
  'snapped',
  'laughed',
  'sighed',
  'began',
  'insisted',
  'explained',
  'repeated',
  'demanded',
  'admitted',
  'agreed',
  'protested',
  'warned',
  'growled',
  'told',
  'went on',
];
const VI_VERBS = [
  'trả lời',
  'đáp lại',
  'thì thầm',
  'thì thào',
  'lên tiếng',
  'nhắc lại',
  'nói tiếp',
  'hỏi lại',
  'nói',
  'hỏi',
  'đáp',
  'hét',
  'kêu',
  'gọi',
  'la',
  'bảo',
  'cười',
  'thốt',
  'quát',
  'nhắc',
  'thưa',
  'reo',
  'than',
  'tiếp',
  'mắng',
  'gắt',
  'rên',
  'thét',
  'dọa',
  'nạt',
  'chửi',
  'giục',
  'gào',
];
const VERB = `(?:${[...EN_VERBS, ...VI_VERBS]
  .sort((a, b) => b.length - a.length)
  .map((v) => v.normalize('NFC').replace(/ /g, '\\s+'))
  .join('|')})(?![\\p{L}\\p{M}])`;
const WORD = `(?:(?:Mr|Mrs|Ms|Dr|St)\\.|\\p{Lu}[\\p{Ll}\\p{M}'’-]*)`;
/** A Vietnamese title in lower case before a name (`bà Tư nói`) belongs to it. */
const NAME = `(${VI_TITLE_PATTERN}?${WORD}(?:[ \\t]+${WORD}){0,3})`;

/** After a quote: `, said Anna` · `, Anna said` · `, Anna nói` · `– Lan hỏi`. */
const AFTER = new RegExp(`^[\\s,.;:!?]*(?:[—–-]\\s*)?(?:${VERB}\\s+${NAME}|${NAME}\\s+${VERB})`, 'u');
/** Before a quote: `Anna said, ` · `Anna hỏi: ` · `Lan nói với Minh: `. */
const BEFORE = new RegExp(`${NAME}\\s+${VERB}(?:\\s+[\\p{L}\\p{M}]+){0,3}?\\s*[:,]\\s*$`, 'u');

/**
 * Who speaks a segment's quotes, as far as its text says. `known`: the book's names
 * (namesInText), so a narration ending in a colon names its speaker before the quote even
 * without a speech verb (`Trương tuần nhăn mặt: — …`).
 */
export function attributeSegment(text: string, known: ReadonlySet<string> = new Set()): SegmentAttribution {
  const points = Array.from(text);
  const found = findQuotes(text);
  if (found.length === 0) return { speaker: null, quotes: [] };
  const quotes: FoundQuote[] = [];
  // The narration the attributions take up, to tell whether anything else is left.
  const attributionRanges: [number, number][] = [];
  found.forEach((quote, index) => {
    const nextStart = found[index + 1]?.start ?? points.length;
    const previousEnd = found[index - 1]?.end ?? 0;
    const after = points.slice(quote.end, nextStart).join('');
    const before = points.slice(previousEnd, quote.start).join('');
    let name: string | null = null;
    const a = AFTER.exec(after);
    if (a) {
      name = cleanName(a[1] ?? a[2] ?? null);
      if (name) attributionRanges.push([quote.end, quote.end + Array.from(a[0]).length]);
    }
    if (!name) {
      const b = BEFORE.exec(before);
      if (b) {
        name = cleanName(b[1] ?? null);
        if (name) attributionRanges.push([quote.start - Array.from(b[0]).length, quote.start]);
      }
    }
    // Any narration ending in a colon: its speaker reads the quote, the narrator the rest.
    if (!name && /:\s*$/u.test(before)) name = colonSpeaker(before, known);
    quotes.push({ ...quote, name });
  });
  // A quote the text does not attribute, beside one it does, is the same speaker's.
  const named = quotes.filter((q) => q.name);
  if (named.length > 0 && new Set(named.map((q) => q.name)).size === 1) {
    for (const q of quotes) q.name ??= named[0]!.name;
  }
  const speakers = new Set(quotes.map((q) => q.name));
  if (speakers.size === 1 && !speakers.has(null)) {
    const covered = new Array<boolean>(points.length).fill(false);
    for (const [from, to] of [
      ...quotes.map((q) => [q.start, q.end] as [number, number]),
      ...attributionRanges,
    ]) {
      for (let i = Math.max(0, from); i < Math.min(points.length, to); i++) covered[i] = true;
    }
    const rest = points.filter((_, i) => !covered[i]).join('');
    if (!/[\p{L}\p{N}]/u.test(rest)) return { speaker: quotes[0]!.name, quotes: [] };
  }
  return { speaker: null, quotes: quotes.filter((q) => q.name) };
}

/**
 * The suggested cast of a book's segments: who speaks which, first heard first. Each segment's
 * own attributions first, then the speakers the dialogue's turns give lines that name none
 * (dialogueTurns), then one name per person (mergeNames). `chapterStarts`: the indexes of the
 * segments that begin a chapter (an exchange ends there). `language`: a book in another language
 * than Vietnamese takes a colon's speaker only from a title (`Mr. Darcy turned to her:`), not a
 * bare capitalised word (`London had one rule:`), since only Vietnamese novels name speakers
 * that way as a rule.
 */
export function suggestCast(
  texts: readonly string[],
  chapterStarts: ReadonlySet<number> = new Set(),
  language = 'vi',
): {
  segments: SegmentAttribution[];
  characters: SuggestedCharacter[];
} {
  const vietnamese = language.toLowerCase().split(/[-_]/)[0] === 'vi';
  const known = vietnamese ? namesInText(texts) : new Set<string>();
  const found = dialogueTurns(
    texts,
    texts.map((text) => attributeSegment(text, known)),
    known,
    chapterStarts,
  );
  const canonical = mergeNames(
    found.flatMap((s) => [s.speaker, ...s.quotes.map((q) => q.name)]).filter((n) => n !== null),
  );
  const rename = (name: string | null) => (name === null ? null : (canonical.get(name) ?? name));
  const segments = found.map((s) => ({
    speaker: rename(s.speaker),
    quotes: s.quotes.map((q) => ({ ...q, name: rename(q.name) })),
  }));
  const characters = new Map<string, SuggestedCharacter>();
  segments.forEach((segment, index) => {
    for (const name of [segment.speaker, ...segment.quotes.map((q) => q.name)]) {
      if (!name) continue;
      let character = characters.get(name);
      if (!character) {
        character = { name, gender: nameGender(name), segments: [] };
        characters.set(name, character);
      }
      if (character.segments.at(-1) !== index) character.segments.push(index);
    }
  });
  return { segments, characters: [...characters.values()] };
}

/**
 * A voice for each suggested character among the language's voices of the catalogue, never the
 * narrator's, unused ones first; a character of unknown gender gets the gender after the last
 * one given (starting with the narrator's opposite), so two unknown speakers sound apart.
 */
export function chooseVoices(
  characters: readonly Pick<SuggestedCharacter, 'name' | 'gender'>[],
  language: string,
  narratorVoice: string,
  taken: readonly string[] = [],
): Map<string, string> {
  const base = language.toLowerCase().split(/[-_]/)[0]!;
  const narrator = VOICES.find((v) => v.voice_code === narratorVoice);
  const pool = VOICES.filter(
    (v) => v.language === (VOICES.some((x) => x.language === base) ? base : narrator?.language),
  ).filter((v) => v.voice_code !== narratorVoice);
  const used = new Set(taken);
  const chosen = new Map<string, string>();
  let nextUnknown: Gender = narrator?.gender === 'female' ? 'male' : 'female';
  for (const character of characters) {
    let gender = character.gender;
    if (!gender) {
      gender = nextUnknown;
      nextUnknown = gender === 'male' ? 'female' : 'male';
    }
    const ofGender = pool.filter((v) => v.gender === gender);
    const candidates = ofGender.length > 0 ? ofGender : pool;
    const voice =
      candidates.find((v) => !used.has(v.voice_code)) ??
      candidates[chosen.size % Math.max(1, candidates.length)];
    const code = voice?.voice_code ?? narratorVoice;
    used.add(code);
    chosen.set(character.name, code);
  }
  return chosen;
}
