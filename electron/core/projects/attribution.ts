/**
 * Who speaks quoted speech, from the attribution the text gives it, in English and Vietnamese:
 * `"…," said Anna` · `"…," Anna said` · `Anna said, "…"` · `"…", Anna nói.` · `Anna hỏi: "…"` ·
 * and dialogue dashes (`— Anh đi đâu? — Lan hỏi.`). Quotes are “…”, "…", «…», „…“ and a line
 * opened by a dash. A segment that is all quotes and their attribution is suggested as spoken by
 * that character; a quote inside narration is suggested as read by its character's voice. Pure
 * functions over plain text (a manuscript's paragraphs have no markup left).
 */

import { VOICES, type Gender } from '../../shared/voices';

/** A quote in a segment: code-point offsets (quote marks included), end exclusive. */
export interface FoundQuote {
  start: number;
  end: number;
  /** The attributed speaker's name, or null when the text does not say. */
  name: string | null;
}

export interface SegmentAttribution {
  /** The whole segment is the speech of this name (quotes and their attribution only). */
  speaker: string | null;
  /** Quotes whose speaker the text names, when the segment is not all speech. */
  quotes: FoundQuote[];
}

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
];
const VERB = `(?:${[...EN_VERBS, ...VI_VERBS]
  .sort((a, b) => b.length - a.length)
  .map((v) => v.normalize('NFC').replace(/ /g, '\\s+'))
  .join('|')})(?![\\p{L}\\p{M}])`;
const WORD = `(?:(?:Mr|Mrs|Ms|Dr|St)\\.|\\p{Lu}[\\p{Ll}\\p{M}'’-]*)`;
/** A Vietnamese title in lower case before a name (`bà Tư nói`) belongs to it. */
const VI_TITLE = `(?:(?:ông|bà|cô|chú|bác|anh|chị|cậu|dì)[ \\t]+)`;
const NAME = `(${VI_TITLE}?${WORD}(?:[ \\t]+${WORD}){0,3})`;

/** After a quote: `, said Anna` · `, Anna said` · `, Anna nói` · `– Lan hỏi`. */
const AFTER = new RegExp(`^[\\s,.;:!?]*(?:[—–-]\\s*)?(?:${VERB}\\s+${NAME}|${NAME}\\s+${VERB})`, 'u');
/** Before a quote: `Anna said, ` · `Anna hỏi: ` · `Lan nói với Minh: `. */
const BEFORE = new RegExp(`${NAME}\\s+${VERB}(?:\\s+[\\p{L}\\p{M}]+){0,3}?\\s*[:,]\\s*$`, 'u');

/** Words that start a clause before a name, dropped from its front. */
const LEADING = new Set([
  'Then',
  'And',
  'But',
  'So',
  'When',
  'Now',
  'Và',
  'Rồi',
  'Nhưng',
  'Thì',
  'Lúc',
  'Khi',
  'Bèn',
]);
/** Pronouns, never a name on their own. */
const PRONOUNS = new Set([
  'He',
  'She',
  'They',
  'I',
  'We',
  'You',
  'It',
  'Someone',
  'Everyone',
  'Nobody',
  'The',
  'A',
  'His',
  'Her',
  'Anh',
  'Chị',
  'Em',
  'Cô',
  'Ông',
  'Bà',
  'Nó',
  'Họ',
  'Tôi',
  'Cậu',
  'Hắn',
  'Ta',
  'Mình',
  'Chúng',
  'Ai',
  'Y',
  'Thị',
]);
const MALE_TITLES = new Set([
  'Mr.',
  'Sir',
  'Lord',
  'King',
  'Prince',
  'Father',
  'Uncle',
  'Ông',
  'Anh',
  'Chú',
  'Bác',
  'Cậu',
  'Bố',
  'Cha',
]);
const FEMALE_TITLES = new Set([
  'Mrs.',
  'Ms.',
  'Miss',
  'Lady',
  'Queen',
  'Princess',
  'Mother',
  'Aunt',
  'Bà',
  'Chị',
  'Cô',
  'Dì',
  'Mẹ',
  'Má',
]);

const PAIRS: Readonly<Record<string, string>> = { '“': '”', '"': '"', '«': '»', '„': '“' };
const DASHES = new Set(['—', '–']);

/** The quotes of a text, as code-point offsets, without names yet. */
export function findQuotes(text: string): { start: number; end: number }[] {
  const points = Array.from(text);
  const quotes: { start: number; end: number }[] = [];
  // A line opened by a dialogue dash: speech up to the next spaced dash, then narration,
  // then speech again after the following dash.
  const first = points.findIndex((p) => !/\s/u.test(p));
  if (first >= 0 && DASHES.has(points[first]!)) {
    let speech = true;
    let start = first;
    for (let i = first + 1; i <= points.length; i++) {
      const spacedDash =
        i < points.length &&
        DASHES.has(points[i]!) &&
        /\s/u.test(points[i - 1] ?? ' ') &&
        /\s/u.test(points[i + 1] ?? ' ');
      if (i === points.length || spacedDash) {
        if (speech) {
          let end = i;
          while (end > start && /\s/u.test(points[end - 1]!)) end--;
          if (end > start + 1) quotes.push({ start, end });
        }
        speech = !speech;
        start = i;
      }
    }
    return quotes;
  }
  for (let i = 0; i < points.length; i++) {
    const close = PAIRS[points[i]!];
    if (!close) continue;
    const end = points.indexOf(close, i + 1);
    if (end < 0) break;
    quotes.push({ start: i, end: end + 1 });
    i = end;
  }
  return quotes;
}

/** Who speaks a segment's quotes, as far as its text says. */
export function attributeSegment(text: string): SegmentAttribution {
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

/** The suggested cast of a book's segments: who speaks which, first heard first. */
export function suggestCast(texts: readonly string[]): {
  segments: SegmentAttribution[];
  characters: SuggestedCharacter[];
} {
  const segments = texts.map(attributeSegment);
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

/** A name's gender from its title or Vietnamese middle name; null when it does not say. */
export function nameGender(name: string): Gender | null {
  const words = name.split(/\s+/);
  if (MALE_TITLES.has(words[0]!)) return 'male';
  if (FEMALE_TITLES.has(words[0]!)) return 'female';
  if (words.includes('Thị')) return 'female';
  if (words.includes('Văn')) return 'male';
  return null;
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

function cleanName(raw: string | null): string | null {
  if (!raw) return null;
  const words = raw.trim().split(/\s+/);
  while (words.length > 0 && LEADING.has(words[0]!)) words.shift();
  if (words.length === 0) return null;
  if (words.length === 1 && PRONOUNS.has(words[0]!)) return null;
  // "Anh ấy", "Cô ta": a pronoun followed by lower case never reaches here (NAME is capitalised).
  if (PRONOUNS.has(words[0]!) && words.every((w) => PRONOUNS.has(w))) return null;
  const name = words.join(' ');
  return name.charAt(0).toUpperCase() + name.slice(1);
}
