/**
 * Reading SRT subtitle files: the one parser, used by the renderer's preview and by the tests
 * that check the engine's subtitles. Writing them is the engine's
 * (`electron/core/engine/subtitles/srt`).
 */

/** One cue of an SRT file: times in ms from the start of the audio, text lines joined by "\n". */
export interface SrtCue {
  index: number;
  startMs: number;
  endMs: number;
  text: string;
}

export interface ParseSrtOptions {
  /**
   * Leave a malformed block out instead of throwing: for showing a file, where one bad block
   * should not hide the others. Default false.
   */
  skipMalformed?: boolean;
}

const TIMING_LINE =
  /^(\d{2,}):([0-5]\d):([0-5]\d)[,.](\d{3}) --> (\d{2,}):([0-5]\d):([0-5]\d)[,.](\d{3})(?:\s.*)?$/u;

/**
 * Parses an SRT file (LF, CRLF or CR line ends, optional BOM) into its cues, in file order.
 * A block is an integer index line, a timing line `HH:MM:SS,mmm --> HH:MM:SS,mmm` (also with
 * `.` before the milliseconds, and with position settings after the times) and at least one
 * line of text; blocks are separated by blank lines. A malformed block throws a SyntaxError
 * naming the block, or with `skipMalformed` is left out. Does not check the subtitle rules
 * (numbering, order, lengths).
 */
export function parseSrt(text: string, options: ParseSrtOptions = {}): SrtCue[] {
  const body = text
    .replace(/^\ufeff/u, '')
    .replace(/\r\n?/gu, '\n')
    .trim();
  if (body === '') return [];
  const cues: SrtCue[] = [];
  body.split(/\n[^\S\n]*\n\s*/u).forEach((block, b) => {
    const cue = parseBlock(block);
    if (typeof cue !== 'string') cues.push(cue);
    else if (!options.skipMalformed) throw new SyntaxError(`SRT block ${b + 1}: ${cue}`);
  });
  return cues;
}

/** The cue of one block, or what is wrong with the block. */
function parseBlock(block: string): SrtCue | string {
  const lines = block.split('\n');
  const indexLine = lines[0]!.trim();
  if (!/^\d+$/u.test(indexLine)) return `expected a cue number, got "${indexLine}"`;
  const timing = TIMING_LINE.exec((lines[1] ?? '').trim());
  if (!timing) return `expected "HH:MM:SS,mmm --> HH:MM:SS,mmm", got "${lines[1] ?? ''}"`;
  const textLines = lines.slice(2).map((line) => line.trimEnd());
  if (textLines.length === 0) return 'cue has no text';
  const ms = (h: string, m: string, s: string, f: string) =>
    ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(f);
  const t = timing.slice(1) as [string, string, string, string, string, string, string, string];
  return {
    index: Number(indexLine),
    startMs: ms(t[0], t[1], t[2], t[3]),
    endMs: ms(t[4], t[5], t[6], t[7]),
    text: textLines.join('\n'),
  };
}
