import { useEffect, useLayoutEffect, useRef } from 'react';
import { wordIndexAt } from '../../lib/chapter-playback';
import type { SegmentWord } from '../../lib/projects-api';

interface PlayerAudioHandlers {
  /** The words of the segment playing (the highlight follows them). */
  wordsNow: () => readonly SegmentWord[];
  setPlaying: (playing: boolean) => void;
  setWordIndex: (update: (old: number) => number) => void;
  setPositionMs: (ms: number) => void;
  /** The segment's audio ended. */
  onEnded: () => void;
}

/**
 * The chapter player's <audio> element heard: playing or paused, the position, the word being
 * spoken (each frame while playing), and the end of a segment.
 */
export function usePlayerAudioEvents(audio: HTMLAudioElement | null, handlers: PlayerAudioHandlers): void {
  const latest = useRef(handlers);
  useLayoutEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!audio) return;
    let frame = 0;
    const tick = () => {
      const ms = audio.currentTime * 1000;
      const index = wordIndexAt(latest.current.wordsNow(), ms);
      latest.current.setWordIndex((old) => (old === index ? old : index));
      if (!audio.paused) frame = requestAnimationFrame(tick);
    };
    const onPlay = () => {
      latest.current.setPlaying(true);
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(tick);
    };
    const onPause = () => latest.current.setPlaying(false);
    const onTime = () => {
      latest.current.setPositionMs(audio.currentTime * 1000);
      tick();
    };
    const onEnded = () => latest.current.onEnded();
    audio.addEventListener('play', onPlay);
    audio.addEventListener('pause', onPause);
    audio.addEventListener('timeupdate', onTime);
    audio.addEventListener('ended', onEnded);
    return () => {
      cancelAnimationFrame(frame);
      audio.removeEventListener('play', onPlay);
      audio.removeEventListener('pause', onPause);
      audio.removeEventListener('timeupdate', onTime);
      audio.removeEventListener('ended', onEnded);
    };
  }, [audio]);
}
