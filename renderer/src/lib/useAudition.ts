/**
 * Plays voice auditions (and lexicon previews, which stream the same way), one at a time, for
 * every view that offers them (Voices, Voice library, Lexicon). The audio element's source is
 * the audition's address, so the browser plays the WAV as it streams in rather than after the
 * whole of it has downloaded.
 */

import { useCallback, useEffect, useRef, useState } from 'react';
import { defineMessages, useIntl } from 'react-intl';
import type { AuditionBody } from '../../../electron/shared/api';
import { errorMessage } from './api-client';
import { useClient, useStudio } from '../stores';

const m = defineMessages({
  notPlayed: { id: 'lib.audition.notPlayed', defaultMessage: 'The sample could not be played.' },
});

export type AuditionPhase = 'loading' | 'playing';

export interface Audition {
  /** What is auditioning now (the key passed to `toggle`), or null. */
  active: string | null;
  /** `loading` from the click until the sound starts, then `playing`; null when idle. */
  phase: AuditionPhase | null;
  /** The last audition that failed, and why in the API's words. */
  error: { key: string; message: string } | null;
  /**
   * Plays `voiceCode` under `key` (stopping any other); when `key` is already active, stops it.
   * One of the user's own voices is auditioned through its own route, with its own prosody.
   */
  toggle(key: string, voiceCode: string, body?: AuditionBody): void;
  /**
   * Plays the streamed WAV at `src` under `key`, as `toggle` does; when the element cannot play
   * it, `diagnose` asks the API again so the error shown is the API's own.
   */
  toggleSource(key: string, src: string, diagnose: () => Promise<unknown>): void;
  stop(): void;
}

export function useAudition(): Audition {
  const client = useClient();
  const intl = useIntl();
  const customVoices = useStudio((s) => s.customVoices);
  const audio = useRef<HTMLAudioElement | null>(null);
  const activeKey = useRef<string | null>(null);
  const [state, setState] = useState<{ key: string; phase: AuditionPhase } | null>(null);
  const [error, setError] = useState<{ key: string; message: string } | null>(null);

  const stop = useCallback(() => {
    const element = audio.current;
    audio.current = null;
    activeKey.current = null;
    if (element) {
      element.pause();
      // Drops the connection too, which stops the synthesis on the server.
      element.removeAttribute('src');
      element.load();
    }
    setState(null);
  }, []);

  useEffect(() => stop, [stop]);

  const toggleSource = useCallback(
    (key: string, src: string, diagnose: () => Promise<unknown>) => {
      const wasActive = activeKey.current === key;
      stop();
      if (wasActive) return;
      setError(null);
      const element = new Audio();
      audio.current = element;
      activeKey.current = key;
      const isCurrent = () => audio.current === element;
      const finish = () => {
        if (!isCurrent()) return false;
        audio.current = null;
        activeKey.current = null;
        setState(null);
        return true;
      };
      element.onplaying = () => {
        if (isCurrent()) setState({ key, phase: 'playing' });
      };
      element.onended = finish;
      element.onerror = () => {
        if (!finish()) return;
        // The element only knows that the source failed: the API's own answer says why.
        void diagnose().then(
          () => setError({ key, message: intl.formatMessage(m.notPlayed) }),
          (e: unknown) => setError({ key, message: errorMessage(e) }),
        );
      };
      element.src = src;
      setState({ key, phase: 'loading' });
      element.play().catch((e: unknown) => {
        // A source error arrives as `error` above, a stop before playing as AbortError.
        const name = (e as Error).name;
        if (name !== 'AbortError' && name !== 'NotSupportedError' && finish())
          setError({ key, message: errorMessage(e) });
      });
    },
    [stop, intl],
  );

  const toggle = useCallback(
    (key: string, voiceCode: string, body: AuditionBody = {}) =>
      customVoices.some((v) => v.code === voiceCode)
        ? toggleSource(key, client.customVoiceAuditionUrl(voiceCode, body), () =>
            client.auditionCustomVoice(voiceCode, body),
          )
        : toggleSource(key, client.auditionUrl(voiceCode, body), () => client.audition(voiceCode, body)),
    [client, customVoices, toggleSource],
  );

  return { active: state?.key ?? null, phase: state?.phase ?? null, error, toggle, toggleSource, stop };
}
