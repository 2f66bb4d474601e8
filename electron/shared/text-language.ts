/**
 * The language a text is written in, from its letters and its commonest words: Vietnamese,
 * English, or `unknown` (too little text, numbers only, another language, or a mix with no
 * clear majority). One detector for the engine, projects, server and studio. Pure (no Node).
 *
 * How it decides, word by word (a word is a run of letters, compared in lower case, NFC):
 * - Vietnamese evidence: a letter only Vietnamese writes (ă đ ơ ư ĩ ũ and every letter with a
 *   Vietnamese tone mark of the Latin Extended Additional block, ạ ả ấ … ỹ), or a Vietnamese
 *   function word (và, của, là, không, một, những, người, được, cho, có…).
 * - English evidence: an English function word (the, and, of, to, is, that…).
 * - Vietnamese shows evidence on most of its words (76% of the test fixture's), English on
 *   fewer (50%), so an English word weighs EN_WEIGHT (2) Vietnamese ones (a mixed text leans to
 *   unknown rather than to Vietnamese). A language wins with
 *   evidence on at least a quarter (Vietnamese) or a fifth (English) of the words and a weight
 *   MARGIN times the other's; else the text is `unknown`. So an English sentence naming
 *   "Nguyễn Văn An" stays English, and a half-and-half text is unknown.
 * - Vietnamese typed without diacritics ("Toi di hoc") has no letter of its own and shares short
 *   words with other languages: it counts as Vietnamese only from MIN_WORDS_WITHOUT_MARKS words
 *   up, when its own unaccented function words (toi, khong, nguoi, duoc…) are a third of the words
 *   and outweigh the English ones by MARGIN; shorter, it is `unknown` (never English). `withoutMarks` says so.
 * - Fewer than MIN_WORDS words (or none: numbers, punctuation) → `unknown`.
 * A long text (a book) is sampled: SAMPLE_WINDOWS windows of SAMPLE_WINDOW_CHARS characters
 * spread evenly over it, so a 500,000-character book costs about as much as 20,000 characters.
 */

export type TextLanguage = 'vi' | 'en' | 'unknown';

export interface TextLanguageGuess {
  language: TextLanguage;
  /** Words looked at (of the sample, for a long text). */
  words: number;
  /** Words that show Vietnamese: its own letters or function words (with or without marks). */
  viWords: number;
  /** English function words. */
  enWords: number;
  /** True when the text was judged Vietnamese from unaccented words alone (no Vietnamese letter). */
  withoutMarks: boolean;
}

/** Below this many words nothing is decided. */
export const MIN_WORDS = 2;
/** Vietnamese without any diacritics is recognised only from this many words. */
export const MIN_WORDS_WITHOUT_MARKS = 6;
/** Texts longer than SAMPLE_WINDOWS × SAMPLE_WINDOW_CHARS are sampled. */
export const SAMPLE_WINDOWS = 8;
export const SAMPLE_WINDOW_CHARS = 2_500;

const VI_SHARE = 0.25;
const EN_SHARE = 0.2;
const VI_UNMARKED_SHARE = 1 / 3;
const EN_WEIGHT = 2;
const MARGIN = 1.5;

/** Letters no other language we meet writes: ă đ ơ ư ĩ ũ and the Vietnamese tone-marked letters. */
const VIETNAMESE_LETTER = /[ăđơưĩũ\u1EA0-\u1EF9]/u;

const VI_FUNCTION_WORDS = new Set(
  (
    'và của là không một những người được cho có các này với trong đã sẽ đang thì mà để ' +
    'đến từ như cũng rất nhiều khi lại ra vào lên xuống nói bảo hỏi tôi chúng mình ông bà ' +
    'anh chị em cô chú bác nó họ gì nào đâu ấy rồi nữa chỉ còn phải làm đi về nhà ở hay ' +
    'nhưng vì nên nếu thế vậy sao đây kia bao giờ lúc ngày năm trên dưới sau trước'
  ).split(' '),
);

/** Vietnamese function words as they are typed without marks; none is a common English word. */
const VI_UNMARKED_WORDS = new Set(
  (
    'va cua la khong mot nhung nguoi duoc cho co cac nay voi trong da se dang thi ma de den ' +
    'tu nhu cung rat nhieu khi lai ra vao len xuong noi bao hoi toi chung minh ong ba anh chi ' +
    'em chu bac ho gi nao dau roi nua chi con phai lam di ve nha hay vi nen neu the vay sao ' +
    'day kia gio luc ngay nam tren duoi sau truoc hoc xin chao cam biet'
  ).split(' '),
);

const EN_FUNCTION_WORDS = new Set(
  (
    'the and of to is that it was he for with as his on be at by i had not are but from or ' +
    'have an they which you were her she all this we my me would there their what been one ' +
    'will if so said who when him into could them than then its our your do did has can ' +
    'about out up no a in'
  ).split(' '),
);

const WORD = /\p{L}+/gu;

/** The text itself when short; else SAMPLE_WINDOWS windows spread over it, cut at spaces. */
function sample(text: string): string {
  const budget = SAMPLE_WINDOWS * SAMPLE_WINDOW_CHARS;
  if (text.length <= budget) return text;
  const step = (text.length - SAMPLE_WINDOW_CHARS) / (SAMPLE_WINDOWS - 1);
  const parts: string[] = [];
  for (let i = 0; i < SAMPLE_WINDOWS; i++) {
    const start = Math.round(i * step);
    const window = text.slice(start, start + SAMPLE_WINDOW_CHARS);
    // Drop the partial words at both ends of a window.
    const first = window.search(/\s/);
    const last = window.search(/\s\S*$/);
    parts.push(first >= 0 && last > first ? window.slice(first, last) : window);
  }
  return parts.join(' ');
}

/** The language of `text` (Vietnamese, English or unknown), with the counts it was decided on. */
export function detectTextLanguage(text: string): TextLanguageGuess {
  const words = sample(text).normalize('NFC').toLowerCase().match(WORD) ?? [];
  let viWords = 0;
  let viUnmarked = 0;
  let enWords = 0;
  let marked = false;
  for (const word of words) {
    if (VIETNAMESE_LETTER.test(word)) {
      viWords++;
      marked = true;
    } else if (VI_FUNCTION_WORDS.has(word)) viWords++;
    else if (EN_FUNCTION_WORDS.has(word)) enWords++;
    else if (VI_UNMARKED_WORDS.has(word)) viUnmarked++;
  }
  const n = words.length;
  const guess = (language: TextLanguage, withoutMarks = false): TextLanguageGuess => ({
    language,
    words: n,
    viWords: viWords + viUnmarked,
    enWords,
    withoutMarks,
  });
  if (n < MIN_WORDS) return guess('unknown');
  const en = EN_WEIGHT * enWords;
  if (viWords >= VI_SHARE * n && viWords >= MARGIN * en) return guess('vi');
  if (enWords >= EN_SHARE * n && en >= MARGIN * (viWords + viUnmarked)) return guess('en');
  if (
    !marked &&
    n >= MIN_WORDS_WITHOUT_MARKS &&
    viWords + viUnmarked >= VI_UNMARKED_SHARE * n &&
    viWords + viUnmarked >= MARGIN * en
  ) {
    return guess('vi', true);
  }
  return guess('unknown');
}
