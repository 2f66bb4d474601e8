import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';
import { errorMessage } from '../../lib/api-client';

export interface Waveform {
  ready: boolean;
  playing: boolean;
  /** Seconds. */
  time: number;
  duration: number;
  error: string | null;
  playPause(): void;
  seekTo(seconds: number): void;
  /** Pixels per second; 0 fits the whole audio in view. */
  zoom(pxPerSecond: number): void;
}

/**
 * The one owner of wavesurfer.js: created for `url` in `container`, destroyed on change or unmount.
 * Mount the caller with `key={url}` so a new audio starts from fresh state.
 */
export function useWaveform(
  container: RefObject<HTMLElement | null>,
  url: string | null,
  /** Seconds where a thin marker is drawn (cue boundaries); they scroll and zoom with the wave. */
  markers: readonly number[] = [],
  /** Chapter starts, drawn as labelled markers in the accent colour. */
  chapters: readonly { start: number; title: string }[] = [],
): Waveform {
  const ws = useRef<WaveSurfer | null>(null);
  const regions = useRef<RegionsPlugin | null>(null);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element || !url) return;
    const plugin = RegionsPlugin.create();
    const instance = WaveSurfer.create({
      container: element,
      url,
      height: 96,
      ...themeColors(),
      barWidth: 2,
      barGap: 1,
      barRadius: 2,
      dragToSeek: true,
      plugins: [plugin],
    });
    ws.current = instance;
    regions.current = plugin;
    // Follow theme switches (system or Settings) without reloading the audio.
    const themeWatch = new MutationObserver(() => instance.setOptions(themeColors()));
    themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const subscriptions = [
      instance.on('ready', (d) => {
        setDuration(d);
        setReady(true);
      }),
      instance.on('timeupdate', (t) => setTime(t)),
      instance.on('play', () => setPlaying(true)),
      instance.on('pause', () => setPlaying(false)),
      instance.on('finish', () => setPlaying(false)),
      instance.on('error', (e) => setError(errorMessage(e))),
    ];
    return () => {
      themeWatch.disconnect();
      for (const unsubscribe of subscriptions) unsubscribe();
      instance.destroy();
      ws.current = null;
      regions.current = null;
    };
  }, [container, url]);

  useEffect(() => {
    const plugin = regions.current;
    if (!plugin || !ready) return;
    plugin.clearRegions();
    const color =
      getComputedStyle(document.documentElement).getPropertyValue('--cue-mark').trim() ||
      'rgba(90, 100, 130, 0.6)';
    for (const start of markers) plugin.addRegion({ start, color, drag: false, resize: false });
    const chapterColor =
      getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || '#4056d6';
    for (const { start, title } of chapters) {
      plugin.addRegion({ start, color: chapterColor, content: title, drag: false, resize: false });
    }
  }, [markers, chapters, ready]);

  const playPause = useCallback(() => {
    void ws.current?.playPause();
  }, []);
  const seekTo = useCallback((seconds: number) => {
    const instance = ws.current;
    if (!instance) return;
    instance.setTime(seconds);
    setTime(seconds);
  }, []);
  const zoom = useCallback((px: number) => ws.current?.zoom(px), []);

  return { ready, playing, time, duration, error, playPause, seekTo, zoom };
}

function themeColors() {
  const styles = getComputedStyle(document.documentElement);
  return {
    waveColor: styles.getPropertyValue('--wave').trim() || '#b8c0d6',
    progressColor: styles.getPropertyValue('--wave-progress').trim() || '#4056d6',
    cursorColor: styles.getPropertyValue('--text').trim() || '#1c2230',
  };
}
