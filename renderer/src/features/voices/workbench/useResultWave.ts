import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import WaveSurfer from 'wavesurfer.js';

export interface ResultWave {
  playing: boolean;
  /** Plays from the start; resolves when it ends or is stopped. */
  play(): Promise<void>;
  stop(): void;
}

function themeColors() {
  const styles = getComputedStyle(document.documentElement);
  return {
    waveColor: styles.getPropertyValue('--wave').trim() || '#b8c0d6',
    progressColor: styles.getPropertyValue('--wave-progress').trim() || '#4056d6',
    cursorColor: styles.getPropertyValue('--text').trim() || '#1c2230',
  };
}

/**
 * A small waveform of one measured audition: drawn from the peaks already computed (the page's
 * rules let an audio element play a blob: address but not fetch one), played by its own element.
 */
export function useResultWave(
  container: RefObject<HTMLElement | null>,
  url: string,
  peaks: readonly number[],
  duration: number,
): ResultWave {
  const ws = useRef<WaveSurfer | null>(null);
  const done = useRef<(() => void) | null>(null);
  const [playing, setPlaying] = useState(false);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const media = new Audio();
    media.src = url;
    const instance = WaveSurfer.create({
      container: element,
      media,
      peaks: [Float32Array.from(peaks)],
      duration,
      height: 56,
      ...themeColors(),
      barWidth: 2,
      barGap: 1,
      barRadius: 2,
      dragToSeek: true,
    });
    ws.current = instance;
    const themeWatch = new MutationObserver(() => instance.setOptions(themeColors()));
    themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const finish = () => {
      setPlaying(false);
      const resolve = done.current;
      done.current = null;
      resolve?.();
    };
    const subscriptions = [
      instance.on('play', () => setPlaying(true)),
      instance.on('pause', finish),
      instance.on('finish', finish),
    ];
    return () => {
      themeWatch.disconnect();
      for (const unsubscribe of subscriptions) unsubscribe();
      finish();
      instance.destroy();
      ws.current = null;
    };
  }, [container, url, peaks, duration]);

  const stop = useCallback(() => {
    ws.current?.pause();
  }, []);

  const play = useCallback(() => {
    const instance = ws.current;
    if (!instance) return Promise.resolve();
    done.current?.();
    return new Promise<void>((resolve, reject) => {
      done.current = resolve;
      instance.setTime(0);
      instance.play().catch((e: unknown) => {
        done.current = null;
        setPlaying(false);
        reject(e instanceof Error ? e : new Error(String(e)));
      });
    });
  }, []);

  return { playing, play, stop };
}
