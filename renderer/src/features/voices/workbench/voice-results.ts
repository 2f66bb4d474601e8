/**
 * What the workbench knows of a voice (its facts: name, kind, what speaks it, language) and what
 * it got when the voice spoke the sentence (a result: waiting, failed, or the audio measured).
 * The side-by-side comparison and the blind A/B test both use these.
 */

import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import { VOICES } from '../../../../../electron/shared/voices';
import { errorMessage } from '../../../lib/api-client';
import { useClient, useStudio } from '../../../stores';
import { languageOf, peaksOf, readWav, WorkbenchError } from './logic';
import { measureAudition, type Measured } from './measure';

export interface VoiceFacts {
  code: string;
  name: string;
  /** A catalogue voice or one of the user's own (see KIND in ResultCard.tsx for its words). */
  kind: 'catalogue' | 'custom';
  engine: string | undefined;
  language: string;
}

export type Result =
  | { code: string; status: 'idle' | 'waiting' | 'speaking' }
  | { code: string; status: 'failed'; error: string }
  | {
      code: string;
      status: 'done';
      sentence: string;
      measured: Measured;
      url: string;
      peaks: number[];
    };

/** What the workbench shows of a voice code: its name, kind, what speaks it, its language. */
export function useVoiceFacts(): (code: string) => VoiceFacts {
  const custom = useStudio((s) => s.customVoices);
  const engines = useStudio((s) => s.voiceEngines);
  return useCallback(
    (code: string) => {
      const own = custom.find((v) => v.code === code);
      if (own)
        return {
          code,
          name: own.name,
          kind: 'custom',
          engine: own.base.kind === 'pack' ? own.base.pack_id : engines[own.voice_code]?.engine,
          language: languageOf(own.language),
        };
      const voice = VOICES.find((v) => v.voice_code === code);
      return {
        code,
        name: voice?.name ?? code,
        kind: 'catalogue',
        engine: engines[code]?.engine,
        language: languageOf(code),
      };
    },
    [custom, engines],
  );
}

/** Speaks `sentence` with `code` and measures it (the audition route of a custom or catalogue voice). */
export function useMeasure(): (
  code: string,
  sentence: string,
  signal?: AbortSignal,
  /** Measure the voice itself: no sentence read from the sentence cache. */
  bypassCache?: boolean,
) => Promise<Result> {
  const client = useClient();
  const intl = useIntl();
  const custom = useStudio((s) => s.customVoices);
  return useCallback(
    async (code, sentence, signal, bypassCache = false) => {
      const body = { text: sentence };
      const url = custom.some((v) => v.code === code)
        ? client.customVoiceAuditionUrl(code, body)
        : client.auditionUrl(code, body);
      try {
        const measured = await measureAudition(url, { signal, bypassCache });
        const blob = new Blob([measured.bytes.slice().buffer], { type: 'audio/wav' });
        return {
          code,
          status: 'done',
          sentence,
          measured,
          url: URL.createObjectURL(blob),
          peaks: peaksOf(measured.bytes, readWav(measured.bytes)),
        };
      } catch (e) {
        if (signal?.aborted) throw e;
        const error =
          e instanceof WorkbenchError ? intl.formatMessage(e.descriptor, e.values) : errorMessage(e);
        return { code, status: 'failed', error };
      }
    },
    [client, custom, intl],
  );
}
