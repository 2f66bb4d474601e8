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
  TITLE_WORDS,
  titleGender,
  VI_TITLE_PATTERN,
} from './speaker-names';

export { nameGender } from './speaker-names';
export { dialogueDashAt, findQuotes, type FoundQuote, type SegmentAttribution } from './dialogue-quotes';

export interface SuggestedCharacter {
  name: string;
  /**
   * From a title (Mrs, Ông, Bà…), a Vietnamese middle name (Văn, Thị), a given name of one
   * gender (Jane, Lan) or the pronouns after the name in the text (characterGender); null when
   * nothing says.
   */
  gender: Gender | null;
  /** Indexes of the segments it speaks whole, or quotes in. */
  segments: number[];
  /** The characters it speaks to: whose turns come next to its own (one narration between at most). */
  partners: string[];
}

/** Pronouns of one gender that follow a person's name in the sentence (`…, said Darcy, and he…`). */
const PRONOUN_GENDERS: readonly [RegExp, Gender][] = [
  [/(?<![\p{L}\p{M}])(?:he|himself)(?![\p{L}\p{M}])/giu, 'male'],
  [/(?<![\p{L}\p{M}])(?:she|herself)(?![\p{L}\p{M}])/giu, 'female'],
  [/(?<![\p{L}\p{M}])(?:anh ấy|anh ta|ông ấy|ông ta|chàng|hắn)(?![\p{L}\p{M}])/giu, 'male'],
  [/(?<![\p{L}\p{M}])(?:cô ấy|cô ta|chị ấy|chị ta|bà ấy|bà ta|nàng)(?![\p{L}\p{M}])/giu, 'female'],
];

/**
 * A character's gender: from its name (nameGender: title, middle name, given name), else from
 * the titles the book puts before it elsewhere (`Mr. Darcy` for `Darcy`) and the subject pronouns in the rest of each sentence that begins with its name (he/she; anh ấy,
 * cô ấy, ông ấy, bà ấy…), when one gender's come at least twice and twice as often as the other's; null
 * when nothing says (such a character is not given a gender by turns).
 */
export function characterGender(name: string, texts: readonly string[]): Gender | null {
  const fromName = nameGender(name);
  if (fromName) return fromName;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
  // The name as its sentence's subject (at its start, not after `Mr.`, not possessive: `Darcy’s`).
  const mention = new RegExp(
    `(?:^|(?<!(?:Mr|Mrs|Ms|Dr|St))[.!?…”"»]\\s+)${escaped}(?![\\p{L}\\p{M}]|['’]s)([^.!?…“”"«»„—;:]*)`,
    'gu',
  );
  const tally = { male: 0, female: 0 };
  // The book's titles before the bare name (`Mr. Darcy` in narration), then the pronouns.
  const titles = TITLE_WORDS.map((t) => t.replace('.', '\\.')).join('|');
  const titled = new RegExp(`(?<![\\p{L}\\p{M}])(${titles})\\s+${escaped}(?![\\p{L}\\p{M}])`, 'giu');
  for (const text of texts) {
    for (const match of text.matchAll(titled)) {
      const gender = titleGender(match[1]!);
      if (gender) tally[gender] += 1;
    }
  }
  for (const text of texts) {
    for (const match of text.matchAll(mention)) {
      for (const [pattern, gender] of PRONOUN_GENDERS) tally[gender] += match[1]!.match(pattern)?.length ?? 0;
    }
  }
  if (tally.male >= 2 && tally.male >= 2 * tally.female) return 'male';
  if (tally.female >= 2 && tally.female >= 2 * tally.male) return 'female';
  return null;
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
    language,
  );
  const rename = (name: string | null) => (name === null ? null : (canonical.get(name) ?? name));
  const segments = found.map((s) => ({
    speaker: rename(s.speaker),
    quotes: s.quotes.map((q) => ({ ...q, name: rename(q.name) })),
  }));
  const characters = new Map<string, SuggestedCharacter>();
  /** The last turn's speakers and where it was, for who speaks to whom. */
  let last: { names: string[]; index: number } | null = null;
  segments.forEach((segment, index) => {
    const names = [...new Set([segment.speaker, ...segment.quotes.map((q) => q.name)])].filter(
      (n) => n !== null,
    );
    if (chapterStarts.has(index)) last = null;
    for (const name of names) {
      let character = characters.get(name);
      if (!character) {
        character = { name, gender: characterGender(name, texts), segments: [], partners: [] };
        characters.set(name, character);
      }
      if (character.segments.at(-1) !== index) character.segments.push(index);
    }
    if (names.length === 0) return;
    const turn: { names: string[]; index: number } = { names, index };
    const heard = [...names.map((n) => [n]), ...(last && index - last.index <= 2 ? [last.names] : [])].flat();
    for (const a of heard) {
      for (const b of heard) {
        const partners = characters.get(a)!.partners;
        if (a !== b && !partners.includes(b)) partners.push(b);
      }
    }
    last = turn;
  });
  return { segments, characters: [...characters.values()] };
}

/** A character's voice and its prosody step (0: the narrator's pitch and rate; see PROSODY_STEPS). */
export interface VoiceChoice {
  voice_code: string;
  step: number;
}

/**
 * Pitch and rate changes (added to the narrator's) that tell apart characters who must share a
 * voice: the first of a voice speaks as the narrator, the next ones a step higher, lower, faster…
 */
export const PROSODY_STEPS: readonly { pitch: number; speed: number }[] = [
  { pitch: 0, speed: 0 },
  { pitch: 0.1, speed: 0 },
  { pitch: -0.1, speed: 0 },
  { pitch: 0.2, speed: 0.1 },
  { pitch: -0.2, speed: -0.1 },
  { pitch: 0.1, speed: 0.1 },
  { pitch: -0.1, speed: -0.1 },
  { pitch: 0.2, speed: -0.1 },
  { pitch: -0.2, speed: 0.1 },
];

/**
 * A voice for each suggested character among the language's voices of the catalogue, never the
 * narrator's: of its gender (any gender when it has none: not guessed by turns), the least used
 * one first, never a voice of a character it speaks to (`partners`) while another is left; when
 * a voice must repeat, each of its characters gets another prosody step (PROSODY_STEPS), so no
 * two sound the same. `taken`: voices the cast already has (and their steps, when known).
 */
export function chooseVoices(
  characters: readonly (Pick<SuggestedCharacter, 'name' | 'gender'> & { partners?: readonly string[] })[],
  language: string,
  narratorVoice: string,
  taken: readonly (string | VoiceChoice)[] = [],
): Map<string, VoiceChoice> {
  const base = language.toLowerCase().split(/[-_]/)[0]!;
  const narrator = VOICES.find((v) => v.voice_code === narratorVoice);
  const pool = VOICES.filter(
    (v) => v.language === (VOICES.some((x) => x.language === base) ? base : narrator?.language),
  ).filter((v) => v.voice_code !== narratorVoice);
  /** Steps in use for each voice. */
  const used = new Map<string, Set<number>>();
  const use = (choice: VoiceChoice) => {
    const steps = used.get(choice.voice_code) ?? new Set<number>();
    steps.add(choice.step);
    used.set(choice.voice_code, steps);
  };
  for (const t of taken) use(typeof t === 'string' ? { voice_code: t, step: 0 } : t);
  const chosen = new Map<string, VoiceChoice>();
  for (const character of characters) {
    const ofGender = character.gender ? pool.filter((v) => v.gender === character.gender) : pool;
    const candidates = ofGender.length > 0 ? ofGender : pool;
    const partnerVoices = new Set(
      (character.partners ?? []).flatMap((p) => {
        const c = chosen.get(p);
        return c ? [c.voice_code] : [];
      }),
    );
    const apart = candidates.filter((v) => !partnerVoices.has(v.voice_code));
    const ranked = (apart.length > 0 ? apart : candidates)
      .map((v, order) => ({ v, order, uses: used.get(v.voice_code)?.size ?? 0 }))
      .sort((a, b) => a.uses - b.uses || a.order - b.order);
    const voice = ranked[0]?.v.voice_code ?? narratorVoice;
    const steps = used.get(voice) ?? new Set<number>();
    let step = 0;
    while (steps.has(step) && step < PROSODY_STEPS.length - 1) step++;
    if (voice === narratorVoice && step === 0) step = 1;
    const choice = { voice_code: voice, step };
    use(choice);
    chosen.set(character.name, choice);
  }
  return chosen;
}
