/**
 * Quotations inside a segment's text ("…", “…”, «…», „…“), so the writer can give each its own
 * voice. Offsets are code points (as the server's QuoteVoice), quote marks included, end exclusive.
 */

const PAIRS: Record<string, string> = { '"': '"', '“': '”', '«': '»', '„': '“', '‘': '’', '「': '」' };

export interface QuoteSpan {
  start: number;
  end: number;
  text: string;
}

/** Each quotation in `text`, in order; an opening mark without its closing one is not a quotation. */
export function findQuotes(text: string): QuoteSpan[] {
  const chars = Array.from(text);
  const spans: QuoteSpan[] = [];
  let i = 0;
  while (i < chars.length) {
    const close = PAIRS[chars[i]!];
    // An apostrophe inside a word (it’s) does not open a quotation.
    const isApostrophe = chars[i] === '‘' && i > 0 && /\p{L}/u.test(chars[i - 1]!);
    if (close !== undefined && !isApostrophe) {
      let j = i + 1;
      while (j < chars.length && chars[j] !== close) j++;
      if (j < chars.length && j > i + 1) {
        spans.push({ start: i, end: j + 1, text: chars.slice(i, j + 1).join('') });
        i = j + 1;
        continue;
      }
    }
    i++;
  }
  return spans;
}
