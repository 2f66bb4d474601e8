/**
 * The chapter player's engine: one <audio> element fed each segment's WAV in turn (fetched with
 * the studio's session, kept as object URLs for the segment playing and the next one), the
 * segment's word timings for the word highlight, and "play alone" (stop after one segment).
 */

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { defineMessages, type MessageDescriptor } from 'react-intl';
import type { SegmentRecord } from '../../../../electron/shared/projects';
import { errorMessage } from '../../lib/api-client';
import { nextPlayable, wordSpans, type WordSpan } from '../../lib/chapter-playback';
import type { SegmentWord } from '../../lib/projects-api';
import { useProjectsApi } from '../../stores';
import { usePlayerAudioEvents } from './usePlayerAudioEvents';
import { useSegmentAudioUrls } from './useSegmentAudioUrls';

const ERRORS = defineMessages({
  nothing: {
    id: 'projects.player.nothingRendered',
    defaultMessage: 'Nothing in this chapter is rendered yet.',
  },
  failed: {
    id: 'projects.player.playFailed',
    defaultMessage: 'Segment {number, number} could not be played: {reason}',
  },
});

/** A player's failure, as a message to format where it shows. */
export interface PlayerError {
  message: MessageDescriptor;
  values?: Record<string, string | number>;
}

export interface ChapterPlayer {
  /** The segment loaded in the player (playing or paused), or null. */
  currentId: string | null;
  playing: boolean;
  /** Playing one segment alone (the player stops at its end). */
  single: boolean;
  /** The segment's words, and the one being spoken (-1: none yet). */
  words: SegmentWord[];
  wordIndex: number;
  /** Where the word being spoken stands in the segment's text, or null. */
  currentSpan: WordSpan | null;
  /** Into the current segment, ms. */
  positionMs: number;
  error: PlayerError | null;
  /** Plays the chapter from this segment on (the next with audio, when it has none). */
  playFrom(segmentId: string): void;
  /** Plays this segment alone. */
  playAlone(segmentId: string): void;
  /** Pauses, resumes, or starts the chapter from its first segment with audio. */
  toggle(): void;
  stop(): void;
  /** Drops the kept audio of a segment (it was rendered again). */
  forget(segmentId: string): void;
}

export function useChapterPlayer(
  /** The player's <audio> element, once in the page. */
  audio: HTMLAudioElement | null,
  projectId: string,
  /** The chapter's segments read so far, from its first. */
  segments: readonly SegmentRecord[],
  /**
   * Reads the chapter's next segments: answers all those read then, or null when there are no
   * more. The player asks when it reaches the end of what is read (the next segment to play is
   * further on).
   */
  loadMore: () => Promise<readonly SegmentRecord[] | null> = async () => null,
): ChapterPlayer {
  const api = useProjectsApi();
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const segmentsRef = useRef(segments);
  const loadMoreRef = useRef(loadMore);
  useLayoutEffect(() => {
    audioRef.current = audio;
    segmentsRef.current = segments;
    loadMoreRef.current = loadMore;
  });
  const { urlOf, forget, clear } = useSegmentAudioUrls(projectId, audioRef);
  const loading = useRef(0);
  const current = useRef<{ index: number; single: boolean; words: SegmentWord[] } | null>(null);
  const [currentId, setCurrentId] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [single, setSingle] = useState(false);
  const [words, setWords] = useState<SegmentWord[]>([]);
  const [spans, setSpans] = useState<(WordSpan | null)[]>([]);
  const [wordIndex, setWordIndex] = useState(-1);
  const [positionMs, setPositionMs] = useState(0);
  const [error, setError] = useState<PlayerError | null>(null);

  const stop = useCallback(() => {
    loading.current++;
    current.current = null;
    const audio = audioRef.current;
    if (audio) {
      audio.pause();
      audio.removeAttribute('src');
      audio.load();
    }
    setCurrentId(null);
    setPlaying(false);
    setWords([]);
    setWordIndex(-1);
    setPositionMs(0);
  }, []);

  const load = useCallback(
    async (index: number, alone: boolean) => {
      let list = segmentsRef.current;
      let at = alone ? index : nextPlayable(list, index);
      // Past what is read: the next segments are read until one has audio (or none are left).
      const reading = loading.current;
      while (!alone && at < 0) {
        const more = await loadMoreRef.current();
        if (!more || reading !== loading.current) break;
        list = segmentsRef.current = more;
        at = nextPlayable(list, index);
      }
      if (reading !== loading.current) return;
      const segment = list[at];
      const audio = audioRef.current;
      if (at < 0 || !segment || !audio) {
        stop();
        if (at < 0 && !alone) setError(index === 0 ? { message: ERRORS.nothing } : null);
        return;
      }
      const mine = ++loading.current;
      setError(null);
      current.current = { index: at, single: alone, words: [] };
      setCurrentId(segment.id);
      setSingle(alone);
      setWords([]);
      setSpans([]);
      setWordIndex(-1);
      setPositionMs(0);
      try {
        const url = await urlOf(segment);
        if (mine !== loading.current) return;
        audio.src = url;
        await audio.play();
      } catch (e) {
        if (mine !== loading.current || (e as Error).name === 'AbortError') return;
        setError({ message: ERRORS.failed, values: { number: at + 1, reason: errorMessage(e) } });
        setPlaying(false);
        return;
      }
      // Words for the highlight; none (an old render without timings) only means no highlight.
      void api.segmentTimings(projectId, segment.id).then(
        (list) => {
          if (mine !== loading.current || !current.current) return;
          current.current.words = list;
          setWords(list);
          setSpans(wordSpans(segment.text, list));
        },
        () => undefined,
      );
      // The next segment's audio is fetched while this one plays.
      if (!alone) {
        const next = segmentsRef.current[nextPlayable(segmentsRef.current, at + 1)];
        if (next) void urlOf(next).catch(() => undefined);
      }
    },
    [api, projectId, stop, urlOf],
  );

  usePlayerAudioEvents(audio, {
    wordsNow: () => current.current?.words ?? [],
    setPlaying,
    setWordIndex,
    setPositionMs,
    onEnded: () => {
      const playingNow = current.current;
      if (!playingNow || playingNow.single) return stop();
      void load(playingNow.index + 1, false);
    },
  });

  // Another chapter (or project): the player stops and forgets its audio.
  const chapterId = segments[0]?.chapter_id;
  useEffect(
    () => () => {
      stop();
      clear();
    },
    [chapterId, projectId, stop, clear],
  );

  const indexOf = (segmentId: string) => segmentsRef.current.findIndex((s) => s.id === segmentId);

  return {
    currentId,
    playing,
    single,
    words,
    wordIndex,
    currentSpan: spans[wordIndex] ?? null,
    positionMs,
    error,
    playFrom: (segmentId) => void load(Math.max(0, indexOf(segmentId)), false),
    playAlone: (segmentId) => {
      const index = indexOf(segmentId);
      if (index >= 0) void load(index, true);
    },
    toggle() {
      const audio = audioRef.current;
      if (!audio) return;
      if (current.current && audio.src) {
        if (audio.paused) void audio.play().catch(() => undefined);
        else audio.pause();
      } else void load(0, false);
    },
    stop,
    forget,
  };
}
