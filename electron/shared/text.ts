/**
 * Cleaning the caller's text and counting billable characters: shared by the engine, the
 * server (what is charged) and the renderer (the live estimate), so all three agree.
 */

/*
 * One pass over UTF-16 code units (no `u` flag, so lone surrogates can be matched):
 * line-ending forms become "\n"; C0/C1 controls other than \n and \t, and invisible
 * format characters that carry no meaning for speech (zero-width space, soft hyphen,
 * bidi marks, embeddings and isolates, word joiner, BOM) are dropped. ZWJ and ZWNJ stay:
 * they hold emoji sequences together and change the spelling of some scripts.
 */
const CLEAN_RE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /\r\n?|[\u000B\u000C\u0085\u2028\u2029]|[\u0000-\u0008\u000E-\u001F\u007F-\u0084\u0086-\u009F\u00AD\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function cleanReplacement(match: string): string {
  const c = match.charCodeAt(0);
  if (c === 0x0d || c === 0x0b || c === 0x0c || c === 0x85 || c === 0x2028) return '\n';
  // A paragraph separator is a paragraph break: keep it visible to the chunker as a blank line.
  if (c === 0x2029) return '\n\n';
  if (c >= 0xd800 && c <= 0xdfff) return '\uFFFD';
  return '';
}

/**
 * The text every later step works on, and whose offsets word timings and subtitles use:
 * Unicode NFC; "\r\n" and "\r" (and VT, FF, NEL, U+2028) become "\n", U+2029 becomes a
 * blank line; other control characters and meaningless invisible format characters are
 * dropped; lone surrogates become U+FFFD. Spaces, tabs and blank lines are kept as they
 * are, so paragraphs survive. Linear time; never throws.
 */
export function cleanText(input: string): string {
  return input.replace(CLEAN_RE, cleanReplacement).normalize('NFC');
}

/** Number of Unicode code points in `text` (a surrogate pair counts once): the billable count. */
export function countCharacters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point: count it at the high half only.
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const prev = text.charCodeAt(i - 1);
      if (prev >= 0xd800 && prev <= 0xdbff) continue;
    }
    count++;
  }
  return count;
}

const SPEAKABLE_RE = /[\p{L}\p{N}]/u;

/**
 * Whether a text has anything a voice can say: at least one letter (\p{L}) or digit (\p{N}).
 * Text made only of punctuation, symbols, emoji and whitespace is not speakable. One rule for
 * the engine (which refuses to render it), the server (which refuses it before charging) and
 * the studio (which says so before sending).
 */
export function hasSpeakableContent(text: string): boolean {
  return SPEAKABLE_RE.test(text);
}
