/**
 * The "How it will be read" view: a text, what it is read for (a voice or a language), and the
 * server's reading of it (POST /api/v1/reading: the words every voice is given, and each change
 * with the rule class or lexicon entry that made it). The text is typed in the view, or taken
 * from the Studio's editor (its voice) or a chapter of the open book project (the narrator's
 * voice), which also show the view and read it at once.
 */

import type { Reading } from '../../../electron/shared/api';
import type { LanguageCode } from '../../../electron/shared/voices';
import { errorMessage } from '../lib/api-client';
import { createProjectsApi } from '../lib/projects-api';
import type { SliceCreator } from './types';

/** What a text is read for: a voice (its language, a custom voice's own lexicon) or a language. */
export type ReadingTarget = { voice_code: string } | { language: LanguageCode };

/** Where the view's text came from. */
export type ReadingSource = { kind: 'typed' } | { kind: 'editor' } | { kind: 'chapter'; title: string };

/** Segments of a chapter read per call when its text is gathered (the route's most). */
const SEGMENT_PAGE = 500;

export interface ReadingSlice {
  readingText: string;
  readingTarget: ReadingTarget;
  readingSource: ReadingSource;
  /**
   * The last reading and the text and target it was asked for (its offsets are of
   * `result.text` when the server cleaned the text, else of `text`); null before the first.
   */
  reading: { text: string; target: ReadingTarget; result: Reading } | null;
  readingBusy: boolean;
  /** The last failure, in the interface's words (the API's code's sentence). */
  readingError: string | null;
  /** The text typed in the view (it becomes the view's own). */
  setReadingText(text: string): void;
  setReadingTarget(target: ReadingTarget): void;
  /** Asks the server for the reading of the view's text. */
  readText(): Promise<void>;
  /** Shows the view with the Studio editor's text and voice, and reads it. */
  readEditor(): Promise<void>;
  /** Shows the view with a chapter of the open project (the narrator's voice), and reads it. */
  readChapter(chapterId: string): Promise<void>;
}

/** The text the changes' offsets are of. */
export function readingBase(reading: NonNullable<ReadingSlice['reading']>): string {
  return reading.result.text ?? reading.text;
}

/** The <select>'s value of a target (and its identity): a voice code, or `language:<code>`. */
export const LANGUAGE_TARGET = 'language:';
export function targetValue(target: ReadingTarget): string {
  return 'voice_code' in target ? target.voice_code : `${LANGUAGE_TARGET}${target.language}`;
}
export function targetOf(value: string): ReadingTarget {
  return value.startsWith(LANGUAGE_TARGET)
    ? { language: value.slice(LANGUAGE_TARGET.length) as LanguageCode }
    : { voice_code: value };
}

/** Whether the reading shown is of another text or target than the view's now. */
export function readingIsStale(
  reading: ReadingSlice['reading'],
  text: string,
  target: ReadingTarget,
): boolean {
  return reading !== null && (reading.text !== text || targetValue(reading.target) !== targetValue(target));
}

/** One run of the written text: unchanged, or the change at `change` in the reading's list. */
export interface ReadingPiece {
  text: string;
  /** Index into `changes`; undefined for text read as written. */
  change?: number;
}

/**
 * The written text cut into runs read as written and runs that changed, in order (changes are
 * in text order and never overlap; one out of order or out of range is left unmarked).
 */
export function readingPieces(
  text: string,
  changes: readonly { from: number; to: number }[],
): ReadingPiece[] {
  const pieces: ReadingPiece[] = [];
  let at = 0;
  changes.forEach((change, index) => {
    if (change.from < at || change.to > text.length || change.to <= change.from) return;
    if (change.from > at) pieces.push({ text: text.slice(at, change.from) });
    pieces.push({ text: text.slice(change.from, change.to), change: index });
    at = change.to;
  });
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}

export const createReadingSlice: SliceCreator<ReadingSlice> =
  ({ client }) =>
  (set, get) => {
    const projects = createProjectsApi(client);
    /** Each read gets a number: an answer older than a newer read is dropped. */
    let reads = 0;

    const read = async (text: string, target: ReadingTarget) => {
      const mine = ++reads;
      set({ readingBusy: true, readingError: null });
      try {
        const result = await client.reading({ text, ...target });
        if (mine === reads) set({ reading: { text, target, result } });
      } catch (error) {
        if (mine === reads) set({ readingError: errorMessage(error) });
      } finally {
        if (mine === reads) set({ readingBusy: false });
      }
    };

    return {
      readingText: '',
      readingTarget: { language: 'vi' },
      readingSource: { kind: 'typed' },
      reading: null,
      readingBusy: false,
      readingError: null,
      setReadingText: (text) => set({ readingText: text, readingSource: { kind: 'typed' } }),
      setReadingTarget: (target) => set({ readingTarget: target }),
      readText: () => read(get().readingText, get().readingTarget),
      async readEditor() {
        const { text, options } = get();
        const target = { voice_code: options.voice_code };
        set({ readingText: text, readingTarget: target, readingSource: { kind: 'editor' }, view: 'reading' });
        await read(text, target);
      },
      async readChapter(chapterId) {
        const detail = get().project;
        const chapter = detail?.chapters.find((c) => c.id === chapterId);
        if (!detail || !chapter) return;
        const narrator = detail.characters.find((c) => c.narrator);
        const target: ReadingTarget = narrator
          ? { voice_code: narrator.voice_code }
          : { language: detail.project.language as LanguageCode };
        const mine = ++reads;
        set({
          readingText: '',
          readingTarget: target,
          readingSource: { kind: 'chapter', title: chapter.title },
          reading: null,
          readingBusy: true,
          readingError: null,
          view: 'reading',
        });
        const texts: string[] = [];
        try {
          for (let offset = 0; ; offset += SEGMENT_PAGE) {
            const page = await projects.segments(detail.project.id, chapterId, offset, SEGMENT_PAGE);
            texts.push(...page.items.map((s) => s.text));
            if (page.items.length === 0 || offset + page.items.length >= page.total) break;
          }
        } catch (error) {
          if (mine === reads) set({ readingBusy: false, readingError: errorMessage(error) });
          return;
        }
        if (mine !== reads) return;
        const text = texts.join('\n\n');
        set({ readingText: text });
        await read(text, target);
      },
    };
  };
