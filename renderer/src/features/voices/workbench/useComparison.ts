import { strToU8, zipSync } from 'fflate';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { defineMessage, useIntl } from 'react-intl';
import { errorMessage } from '../../../lib/api-client';
import { useStudio } from '../../../stores';
import { audioFileName, comparisonCsv, tally } from './logic';
import { workbenchMessages as m } from './ResultCard';
import type { ResultWave } from './useResultWave';
import { useMeasure, useVoiceFacts, type Result } from './voice-results';

const zipFile = defineMessage<{ date: string }>({
  id: 'voices.workbench.zipName',
  defaultMessage: 'voice-comparison-{date}.zip',
});
const spoken = defineMessage<{ count: number }>({
  id: 'voices.workbench.spoken',
  defaultMessage: '{count, plural, one {Spoken by # voice.} other {Spoken by # voices.}}',
});
const playFailed = defineMessage<{ name: string; error: string }>({
  id: 'voices.workbench.playFailed',
  defaultMessage: '{name} could not be played: {error}',
});
const playing = defineMessage<{ index: number; count: number; name: string }>({
  id: 'voices.workbench.playing',
  defaultMessage: 'Playing {index, number} of {count, number}: {name}',
});

/**
 * The workbench's comparison: each queued voice's result (spoken one after another by speakAll,
 * so that each voice's figures are not slowed by the others'), playing them all in turn, and the
 * comparison exported as a zip (each voice's WAV and a CSV).
 */
export function useComparison(sentence: string) {
  const intl = useIntl();
  const saved = useStudio((s) => s.workbench);
  const facts = useVoiceFacts();
  const measure = useMeasure();
  const [results, setResults] = useState<Record<string, Result>>({});
  const [running, setRunning] = useState(false);
  const [playingAll, setPlayingAll] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  /** Every voice synthesises the sentence, none read from the sentence cache. */
  const [noCache, setNoCache] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const waves = useRef(new Map<string, ResultWave>());
  const stopAll = useRef(false);

  // The blob addresses go with the results they belong to.
  const urls = useRef<string[]>([]);
  useEffect(() => {
    urls.current = Object.values(results).flatMap((r) => (r.status === 'done' ? [r.url] : []));
  }, [results]);
  useEffect(
    () => () => {
      abort.current?.abort();
      for (const url of urls.current) URL.revokeObjectURL(url);
    },
    [],
  );

  const speakAll = async () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setRunning(true);
    setNotice('');
    const text = sentence.trim();
    setResults((old) => {
      for (const r of Object.values(old)) if (r.status === 'done') URL.revokeObjectURL(r.url);
      return Object.fromEntries(saved.queue.map((code) => [code, { code, status: 'waiting' } as Result]));
    });
    try {
      // One after another, so that each voice's figures are not slowed by the others'.
      for (const code of saved.queue) {
        setResults((old) => ({ ...old, [code]: { code, status: 'speaking' } }));
        const result = await measure(code, text, controller.signal, noCache);
        setResults((old) => ({ ...old, [code]: result }));
      }
      setNotice(intl.formatMessage(spoken, { count: saved.queue.length }));
    } catch {
      // Aborted: a new run or leaving the view.
    } finally {
      if (abort.current === controller) setRunning(false);
    }
  };

  const done = saved.queue
    .map((code) => results[code])
    .filter((r): r is Extract<Result, { status: 'done' }> => r?.status === 'done');

  const playAll = async () => {
    stopAll.current = false;
    for (const r of done) {
      if (stopAll.current) break;
      const wave = waves.current.get(r.code);
      if (!wave) continue;
      setPlayingAll(r.code);
      try {
        await wave.play();
      } catch (e) {
        setNotice(intl.formatMessage(playFailed, { name: facts(r.code).name, error: errorMessage(e) }));
        break;
      }
    }
    setPlayingAll(null);
  };
  const stopPlayingAll = () => {
    stopAll.current = true;
    for (const w of waves.current.values()) w.stop();
  };

  const wins = useMemo(
    () => new Map(tally(saved.blind).map((line) => [line.voiceCode, line.wins])),
    [saved.blind],
  );

  const exportZip = () => {
    const files: Record<string, Uint8Array> = {};
    const rows = done.map((r, i) => {
      const f = facts(r.code);
      const file = audioFileName(i, r.code);
      files[file] = r.measured.bytes;
      return {
        file,
        voiceCode: r.code,
        name: f.name,
        kind: f.kind,
        engine: f.engine ?? '',
        durationS: r.measured.info.duration,
        firstAudioMs: r.measured.firstAudioMs,
        totalMs: r.measured.totalMs,
        rtf: r.measured.rtf,
        cache: r.measured.cache ?? '',
        favourite: saved.favourites.includes(r.code),
        note: saved.notes[r.code] ?? '',
        wins: wins.get(r.code) ?? 0,
        sentence: r.sentence,
      };
    });
    files[intl.formatMessage(m.csvFile)] = strToU8(comparisonCsv(rows));
    const zip = zipSync(files, { level: 6 });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([zip.slice().buffer], { type: 'application/zip' }));
    link.download = intl.formatMessage(zipFile, { date: new Date().toISOString().slice(0, 10) });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };

  const register = useCallback((code: string, wave: ResultWave | null) => {
    if (wave) waves.current.set(code, wave);
    else waves.current.delete(code);
  }, []);

  /** What the status line says: which voice plays, else the last notice. */
  const status = playingAll
    ? intl.formatMessage(playing, {
        index: done.findIndex((r) => r.code === playingAll) + 1,
        count: done.length,
        name: facts(playingAll).name,
      })
    : notice;
  return {
    results,
    running,
    playingAll,
    status,
    noCache,
    setNoCache,
    done,
    wins,
    speakAll,
    playAll,
    stopPlayingAll,
    exportZip,
    register,
  };
}
