/**
 * Japanese text for the engine, second stage. eSpeak NG reads kana well but every kanji as
 * the English words "Chinese letter", so words written with kanji are replaced by their kana
 * pronunciation from kuromoji's dictionary (IPADIC), with a map back to the source. The first
 * stage is the rewriting every language gets (`../rules`, with `./ja`, whose `afterRules` this is).
 */

import { createRequire } from 'node:module';
import path from 'node:path';
import { AppError } from '../../../../shared/errors';
import { collectGarbage } from '../../threads/release-memory';
import type { PreparedText } from '../../types';
import { MappedTextBuilder, type MappedText } from '../mapped-text';

/** The parts of a kuromoji token this module reads. */
interface KuromojiToken {
  surface_form: string;
  pos: string;
  pos_detail_1: string;
  reading?: string;
  pronunciation?: string;
}

interface KuromojiTokenizer {
  tokenize(text: string): KuromojiToken[];
}

interface KuromojiModule {
  builder(options: { dicPath: string }): {
    build(callback: (error: Error | null, tokenizer: KuromojiTokenizer) => void): void;
  };
}

// kuromoji is CommonJS without types; its dictionary ships beside it in `dict/`.
const require = createRequire(import.meta.url);

let tokenizer: Promise<KuromojiTokenizer> | undefined;
/** Runs out when the tokenizer has not been used for `idleMs`. */
let releaseTimer: NodeJS.Timeout | undefined;
let idleMs = 60_000;

/**
 * The shared tokenizer of this thread, built on first use and kept while Japanese text keeps
 * coming: building it took 0.7–1.2 s and raised the process RSS by ~340 MB (~80 MB of JS
 * heap) when measured, so it is dropped after `idleMs` without use (see
 * `releaseJapaneseAfterIdle`) and built again by the next Japanese text. A failed build is
 * not cached, so a later call retries. Rejects with AppError ENGINE_FAILED.
 */
function loadTokenizer(): Promise<KuromojiTokenizer> {
  tokenizer ??= new Promise<KuromojiTokenizer>((resolve, reject) => {
    const entry = require.resolve('kuromoji');
    const dicPath = path.join(path.dirname(entry), '..', 'dict');
    const kuromoji = require(entry) as KuromojiModule;
    kuromoji.builder({ dicPath }).build((error, built) => {
      if (error)
        reject(
          new AppError('ENGINE_FAILED', `Japanese dictionary failed to load from ${dicPath}`, undefined, {
            cause: error,
          }),
        );
      else resolve(built);
    });
  }).catch((error: unknown) => {
    tokenizer = undefined;
    throw error;
  });
  // The idle time counts from the last use, once built (a build outlasting a short idle
  // time must not be dropped before its first use).
  return tokenizer.then((built) => {
    clearTimeout(releaseTimer);
    releaseTimer = idleMs > 0 ? setTimeout(() => void releaseJapanese(), idleMs) : undefined;
    // A dictionary waiting to be dropped must not keep the process alive.
    releaseTimer?.unref();
    return built;
  });
}

/**
 * How long the Japanese dictionary stays loaded without use, ms (default 60 000; 0: until
 * the process ends). The dictionary is shared by every engine of the thread, so the last
 * setting applies; the timer restarts at the next use.
 */
export function releaseJapaneseAfterIdle(ms: number): void {
  idleMs = ms;
}

/**
 * Drops the dictionary now and gives its memory back; the next Japanese text builds it again.
 * Resolves with whether it was loaded. A text being read keeps its own reference to it.
 */
async function releaseJapanese(): Promise<boolean> {
  clearTimeout(releaseTimer);
  releaseTimer = undefined;
  if (!tokenizer) return false;
  tokenizer = undefined;
  await collectGarbage();
  return true;
}

/** Whether the dictionary is loaded (or loading) now. */
export function isJapaneseLoaded(): boolean {
  return tokenizer !== undefined;
}

/** Builds the Japanese tokenizer now, so the first Japanese request does not wait for it. */
export async function warmUpJapanese(): Promise<void> {
  await loadTokenizer();
}

const KANJI_RE = /[\p{Script=Han}々〆ヶ]/u;
const DIGITS_RE = /^\d+$/;
const JAPANESE_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const SPACE_OR_MARK_RE = /[\s\p{P}]$/u;

const HOUR_ONES = ['', 'イチ', 'ニ', 'サン', 'ヨ', 'ゴ', 'ロク', 'シチ', 'ハチ', 'ク'];
const TENS = ['', 'ジュウ', 'ニジュウ', 'サンジュウ', 'ヨンジュウ', 'ゴジュウ'];
const MINUTE_ONES = [
  '',
  'イップン',
  'ニフン',
  'サンプン',
  'ヨンプン',
  'ゴフン',
  'ロップン',
  'ナナフン',
  'ハップン',
  'キュウフン',
];
const MINUTE_TENS = ['', 'ジュップン', 'ニジュップン', 'サンジュップン', 'ヨンジュップン', 'ゴジュップン'];
const MONTHS = [
  '',
  'イチガツ',
  'ニガツ',
  'サンガツ',
  'シガツ',
  'ゴガツ',
  'ロクガツ',
  'シチガツ',
  'ハチガツ',
  'クガツ',
  'ジュウガツ',
  'ジュウイチガツ',
  'ジュウニガツ',
];
const DAY_ONES = ['', 'イチ', 'ニ', 'サン', 'ヨン', 'ゴ', 'ロク', 'シチ', 'ハチ', 'ク'];
/** Days of the month with their own words; the others are number + ニチ. */
const SPECIAL_DAYS: Record<number, string> = {
  2: 'フツカ',
  3: 'ミッカ',
  4: 'ヨッカ',
  5: 'イツカ',
  6: 'ムイカ',
  7: 'ナノカ',
  8: 'ヨウカ',
  9: 'ココノカ',
  10: 'トオカ',
  14: 'ジュウヨッカ',
  20: 'ハツカ',
  24: 'ニジュウヨッカ',
};

/**
 * Kana for a number followed by a counter whose reading depends on the number (eSpeak
 * reads the digits; kuromoji reads 月 after a number as ツキ and knows no 4時 = よじ),
 * or undefined to leave both tokens to the ordinary path.
 */
function counterReading(value: number, counter: string, afterMonth: boolean): string | undefined {
  switch (counter) {
    case '月':
      return MONTHS[value];
    case '日': {
      if (value < 1 || value > 31) return undefined;
      if (value === 1) return afterMonth ? 'ツイタチ' : 'イチニチ';
      const special = SPECIAL_DAYS[value];
      if (special) return special;
      return `${TENS[Math.floor(value / 10)]}${DAY_ONES[value % 10]}ニチ`;
    }
    case '時':
      if (value > 24) return undefined;
      if (value === 0) return 'レイジ';
      return `${TENS[Math.floor(value / 10)]}${HOUR_ONES[value % 10]}ジ`;
    case '分': {
      if (value < 1 || value > 59) return undefined;
      const tens = Math.floor(value / 10);
      const ones = value % 10;
      if (ones === 0) return MINUTE_TENS[tens];
      return `${TENS[tens]}${MINUTE_ONES[ones]}`;
    }
    default:
      return undefined;
  }
}

/**
 * Whether a phrase (bunsetsu) starts at `token`: eSpeak gives one word event per run of
 * text between spaces, so without spaces a whole Japanese sentence is one "word". A space
 * before each content word gives word timings per phrase for ~3% longer audio. Only next
 * to kanji: kuromoji cuts kana-only text unreliably (がっこう → がっ|こう).
 */
function startsPhrase(token: KuromojiToken, previous: KuromojiToken | undefined): boolean {
  if (!previous) return false;
  if (!KANJI_RE.test(token.surface_form) && !KANJI_RE.test(previous.surface_form)) return false;
  if (token.pos === '助詞' || token.pos === '助動詞' || token.pos === '記号') return false;
  if (token.pos_detail_1 === '接尾' || token.pos_detail_1 === '非自立') return false;
  if (previous.pos === '接頭詞' || previous.pos === '記号') return false;
  // Compound nouns (東京タワー) and サ変 verbs (勉強する) stay one phrase; 毎日 before a noun does not join it.
  if (
    previous.pos === '名詞' &&
    previous.pos_detail_1 !== '副詞可能' &&
    (token.pos === '名詞' || (token.pos === '動詞' && previous.pos_detail_1 === 'サ変接続'))
  )
    return false;
  return true;
}

function toKatakana(text: string): string {
  return text.replace(/[\u3041-\u3096]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60));
}

/**
 * Kana-only tokens are kept as written, except where the dictionary says a kana is not
 * pronounced as spelled: the particles は and へ (read わ and え), also inside
 * こんにちは. eSpeak reads kana as spelled.
 */
function copyKana(builder: MappedTextBuilder, token: KuromojiToken, at: number): void {
  const surface = token.surface_form;
  const { reading, pronunciation } = token;
  const end = at + surface.length;
  if (
    !reading ||
    !pronunciation ||
    reading === pronunciation ||
    reading.length !== surface.length ||
    pronunciation.length !== surface.length ||
    toKatakana(surface) !== reading
  ) {
    builder.copy(at, end);
    return;
  }
  let copied = at;
  for (let k = 0; k < surface.length; k++) {
    const spelled = reading[k];
    const said = pronunciation[k];
    const hiragana = surface.charCodeAt(k) < 0x30a0;
    let replacement: string | undefined;
    if (spelled === 'ハ' && said === 'ワ') replacement = hiragana ? 'わ' : 'ワ';
    else if (spelled === 'ヘ' && said === 'エ') replacement = hiragana ? 'え' : 'エ';
    if (replacement) {
      builder.copy(copied, at + k);
      builder.replace(replacement, at + k, at + k + 1);
      copied = at + k + 1;
    }
  }
  builder.copy(copied, end);
}

/**
 * Japanese text for the engine, with the map back to `text`: `stage1` is `text` after the
 * rewrites every language gets (`rewriteForEngine` in `../rules`: dates, times, money, percent,
 * SSML-significant characters, emoji, full-width digits, the lexicon); here every word written
 * with kanji becomes its katakana pronunciation (日本語を話します → ニホンゴをハナシます). Numbers before
 * 月, 日, 時 and 分 get their irregular readings (4月 シガツ, 1日 ツイタチ after a month, 3分
 * サンプン). A kanji the dictionary cannot read becomes a space, since eSpeak would say
 * "Chinese letter". Kana, Latin letters and digits are passed through (eSpeak reads
 * them), except the particles は and へ, written わ and え. A space is inserted where a
 * phrase (bunsetsu) starts next to kanji, so the engine reports a word event per phrase;
 * kana-only text is otherwise unchanged. `toSource` positions map to the whole source word a reading
 * replaced, and a phrase event to the source phrase. Rejects with AppError ENGINE_FAILED only if the
 * dictionary cannot be loaded. The lexicon's entries apply in the first stage, to the source as
 * written; a kana respelling passes this one unchanged. Called as `prepareForEngine` (`../rules`)
 * does for Japanese.
 */
export async function kanaStage(stage1: MappedText, text: string): Promise<PreparedText> {
  const input = stage1.engineText;
  const builder = new MappedTextBuilder(input, stage1.spans);
  if (!JAPANESE_RE.test(input)) {
    builder.copy(0, input.length);
    return builder.build(text);
  }
  const tokens = (await loadTokenizer()).tokenize(input);
  let pos = 0;
  let afterMonth = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as KuromojiToken;
    const surface = token.surface_form;
    // Surfaces tile the input; search only in case a future version skips something.
    const at = input.startsWith(surface, pos) ? pos : input.indexOf(surface, pos);
    if (at < 0 || surface === '') continue;
    builder.copy(pos, at);
    if (
      at === pos &&
      at > 0 &&
      startsPhrase(token, tokens[i - 1]) &&
      !SPACE_OR_MARK_RE.test(input.slice(at - 1, at))
    ) {
      builder.replace(' ', at, at);
    }
    let end = at + surface.length;
    const next = tokens[i + 1];
    const counter =
      DIGITS_RE.test(surface) && next && input.startsWith(next.surface_form, end)
        ? counterReading(Number(surface), next.surface_form, afterMonth)
        : undefined;
    if (counter !== undefined && next) {
      end += next.surface_form.length;
      builder.replace(counter, at, end);
      afterMonth = next.surface_form === '月';
      i++;
    } else if (KANJI_RE.test(surface)) {
      const kana = [token.pronunciation, token.reading].find(
        (r) => r !== undefined && r !== '' && r !== '*' && !KANJI_RE.test(r),
      );
      builder.replace(kana ?? ' ', at, end);
      afterMonth = false;
    } else {
      copyKana(builder, token, at);
      afterMonth = false;
    }
    pos = end;
  }
  builder.copy(pos, input.length);
  return builder.build(text);
}
