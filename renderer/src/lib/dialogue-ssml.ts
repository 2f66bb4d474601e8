/**
 * Dialogue voices without writing SSML by hand: the compose text plus voice assignments (a
 * narrator, a character voice for quoted speech, a voice per paragraph) become the SSML the API
 * reads (`<speak>`, `<p>`, `<voice name="code">`). Pure: the preview and the submit use the same
 * plan, so what the colours show is what is spoken.
 */

import { escapeSsmlText } from '../../../electron/shared/ssml';

/** Who reads what. Voice codes are the API's; the narrator is the request's own `voice_code`. */
export interface DialogueVoices {
  narrator: string;
  /** Reads quoted speech; null: the narrator reads it too. */
  character: string | null;
  /** Paragraph index (as `splitParagraphs` counts) → the voice reading all of that paragraph. */
  paragraphs: Readonly<Record<number, string>>;
}

/** A run of text read by one voice. */
export interface VoiceSpan {
  text: string;
  voice: string;
  /** True for quoted speech (quote marks included in `text`); false in a paragraph with its own voice. */
  quoted: boolean;
}

export interface Paragraph {
  /** 0-based, counting non-empty paragraphs only. */
  index: number;
  /** The paragraph as written (trimmed), line breaks inside it kept. */
  text: string;
}

export interface PlannedParagraph extends Paragraph {
  spans: VoiceSpan[];
  /** The voice assigned to the whole paragraph, when one is. */
  override: string | undefined;
}

/**
 * Paragraphs as the engine's chunker sees them: separated by a blank line (a line of only
 * whitespace). A single line break stays inside its paragraph, so hard-wrapped prose keeps a
 * quotation that spans lines whole.
 */
export function splitParagraphs(text: string): Paragraph[] {
  return text
    .split(/\r?\n[ \t]*\r?\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p, index) => ({ index, text: p }));
}

/**
 * Quotation marks that open speech, each with the marks that close it. `„` closes with `“`
 * (German) or `”` (Polish); `“` opens English quotes, so it is an opener only outside a quote.
 * British single quotes count too, with care for apostrophes (see `isOpening`/`isClosing`).
 */
const CLOSERS: Readonly<Record<string, string>> = {
  '“': '”',
  '"': '"',
  '«': '»',
  '„': '“”',
  '‘': '’',
};

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Whether the mark at `i` can open speech: straight and single quotes only before a word, not after one (5'11", don’t). */
function isOpening(text: string, i: number): boolean {
  const mark = text[i]!;
  if (!(mark in CLOSERS)) return false;
  if (mark !== '"' && mark !== '‘') return true;
  const before = text[i - 1];
  const after = text[i + 1];
  return (before === undefined || !WORD_CHAR.test(before)) && after !== undefined && !/\s/.test(after);
}

/** Whether the mark at `i` closes speech opened by `opener`: a right single quote inside a word is an apostrophe. */
function isClosing(text: string, i: number, opener: string): boolean {
  if (!CLOSERS[opener]!.includes(text[i]!)) return false;
  if (opener !== '‘') return true;
  const after = text[i + 1];
  return after === undefined || !WORD_CHAR.test(after);
}

/**
 * Splits a paragraph into narration and quoted speech. Quotes of one kind nest (a `“` inside
 * `“…”` waits for two `”`); other kinds inside a quotation are part of it. A quotation left open
 * runs to the end of the paragraph, as a novel's multi-paragraph speech reads until its next
 * opening mark.
 */
export function splitQuotes(text: string): { text: string; quoted: boolean }[] {
  const parts: { text: string; quoted: boolean }[] = [];
  let start = 0;
  let opener: string | undefined;
  let depth = 0;
  const push = (end: number, quoted: boolean) => {
    if (end > start) parts.push({ text: text.slice(start, end), quoted });
    start = end;
  };
  // Only quotation marks matter: jump from one to the next (a 100,000-character chapter plans in
  // a few milliseconds, behind typing).
  const marks = /["“”«»„‘’]/g;
  for (let found = marks.exec(text); found; found = marks.exec(text)) {
    const i = found.index;
    const mark = found[0];
    if (opener === undefined) {
      if (isOpening(text, i)) {
        push(i, false);
        opener = mark;
        depth = 1;
      }
    } else if (isClosing(text, i, opener)) {
      // A symmetric mark (") can only close: nesting needs distinct opening and closing marks.
      if (--depth === 0) {
        push(i + 1, true);
        opener = undefined;
      }
    } else if (mark === opener) {
      depth++;
    }
  }
  push(text.length, opener !== undefined);
  return parts;
}

/** Which voice reads each part of each paragraph. */
export function planDialogue(text: string, voices: DialogueVoices): PlannedParagraph[] {
  return splitParagraphs(text).map((paragraph) => {
    const override = voices.paragraphs[paragraph.index];
    if (override !== undefined) {
      return { ...paragraph, spans: [{ text: paragraph.text, voice: override, quoted: false }], override };
    }
    const spans: VoiceSpan[] = [];
    for (const part of splitQuotes(paragraph.text)) {
      const voice = part.quoted ? (voices.character ?? voices.narrator) : voices.narrator;
      const last = spans[spans.length - 1];
      // Neighbours read by one voice merge, so the SSML switches voice only where the voice changes.
      if (last && last.voice === voice && last.quoted === part.quoted) last.text += part.text;
      else spans.push({ text: part.text, voice, quoted: part.quoted });
    }
    return { ...paragraph, spans, override };
  });
}

export { escapeSsmlText };

const escapeAttribute = (value: string) => escapeSsmlText(value).replace(/"/g, '&quot;');

/**
 * The SSML for a dialogue: `<speak>`, one `<p>` per paragraph, `<voice name="…">` around every
 * run not read by the narrator (the narrator is the request's `voice_code`, so its runs need no
 * tag). Undefined when the narrator reads everything: such text is sent as plain text, as before.
 */
export function dialogueToSsml(text: string, voices: DialogueVoices): string | undefined {
  const plan = planDialogue(text, voices);
  if (plan.every((p) => p.spans.every((s) => s.voice === voices.narrator))) return undefined;
  const paragraphs = plan.map((p) => {
    const body = p.spans
      .map((s) =>
        s.voice === voices.narrator
          ? escapeSsmlText(s.text)
          : `<voice name="${escapeAttribute(s.voice)}">${escapeSsmlText(s.text)}</voice>`,
      )
      .join('');
    return `<p>${body}</p>`;
  });
  return `<speak>\n${paragraphs.join('\n')}\n</speak>`;
}

/** The place an SSML_INVALID message names ("… (line 3, column 14)."), 1-based; undefined if none. */
export function ssmlErrorPlace(message: string): { line: number; column: number } | undefined {
  const m = /\(line (\d+), column (\d+)\)\.?$/.exec(message);
  return m ? { line: Number(m[1]), column: Number(m[2]) } : undefined;
}

/** The 0-based offset of a 1-based line and column (UTF-16 code units) in `text`, clamped into it. */
export function offsetAt(text: string, line: number, column: number): number {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return text.length;
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return Math.min(start + Math.max(0, column - 1), end < 0 ? text.length : end);
}

/**
 * Paragraph voices after an edit: an assignment follows its paragraph when paragraphs are
 * inserted or removed above it (found by its unchanged text, the nearest such paragraph), and
 * stays at its index when the paragraph itself was edited. Assignments past the last paragraph go.
 */
export function remapParagraphVoices(
  before: string,
  after: string,
  assignments: Readonly<Record<number, string>>,
): Record<number, string> {
  const entries = Object.entries(assignments);
  if (entries.length === 0) return {};
  const old = splitParagraphs(before);
  const now = splitParagraphs(after);
  const result: Record<number, string> = {};
  for (const [key, voice] of entries) {
    const index = Number(key);
    const text = old[index]?.text;
    let target = index;
    if (text !== undefined && now[index]?.text !== text) {
      let best = -1;
      for (const p of now) {
        if (p.text === text && (best < 0 || Math.abs(p.index - index) < Math.abs(best - index)))
          best = p.index;
      }
      if (best >= 0) target = best;
    }
    if (target < now.length && result[target] === undefined) result[target] = voice;
  }
  return result;
}
