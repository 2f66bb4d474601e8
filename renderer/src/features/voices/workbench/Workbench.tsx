/**
 * The voice workbench: the tester's own sentence spoken by any number of voices (catalogue
 * voices, whatever installed pack speaks them, the user's own voices), side by side with a
 * waveform and the figures measured here; play one after another, a blind A/B test, favourites,
 * notes, and the comparison exported as a zip (each voice's WAV and a CSV).
 */

import { strToU8, zipSync } from 'fflate';
import { useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { defineMessage, defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { errorMessage } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/format';
import { useShortcut } from '../../../lib/shortcuts';
import { EngineBadge } from '../../../components/EngineBadge';
import { VoiceSelect } from '../../../components/VoiceSelect';
import { useStudio } from '../../../stores';
import { languageMismatch, MISMATCH, TextLanguageNotice } from '../../compose/TextLanguageNotice';
import { BlindTest } from './BlindTest';
import { audioFileName, comparisonCsv, defaultSentence, tally } from './logic';
import { PlayToggle } from './PlayToggle';
import { useResultWave, type ResultWave } from './useResultWave';
import { useMeasure, useVoiceFacts, type Result, type VoiceFacts } from './voice-results';
import './workbench.css';
import { BusyButton } from '../../../components/BusyButton';
import { useFocusAfterRemoval } from '../../../lib/focus-return';

export const MAX_SENTENCE = 300;

/** What a voice's kind is called on its card (the CSV has the machine value, `catalogue` or `custom`). */
export const KIND = defineMessages({
  catalogue: { id: 'voices.workbench.kind.catalogue', defaultMessage: 'catalogue' },
  custom: { id: 'voices.workbench.kind.custom', defaultMessage: 'your voice' },
});

const m = defineMessages({
  csvFile: { id: 'voices.workbench.csv.fileName', defaultMessage: 'comparison.csv' },
  speaking: { id: 'voices.workbench.speaking', defaultMessage: 'Speaking…' },
});

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
/** The mark of a card whose audio the sentence cache answered, or that was measured without it. */
const cacheMark = defineMessages<{ badge: { use: string }; explain: { use: string } }>({
  badge: {
    id: 'voices.workbench.cache.badge',
    defaultMessage:
      '{use, select, hit {From the cache} partial {Partly from the cache} other {Measured without the cache}}',
  },
  explain: {
    id: 'voices.workbench.cache.explain',
    defaultMessage:
      '{use, select, hit {Every sentence was read back from the sentence cache: these figures time stored audio, not the voice speaking.} other {Some sentences were read back from the sentence cache: these figures are faster than the voice is.}} Switch on “Measure without the cache” and speak again to measure the voice.',
  },
});
const playing = defineMessage<{ index: number; count: number; name: string }>({
  id: 'voices.workbench.playing',
  defaultMessage: 'Playing {index, number} of {count, number}: {name}',
});

/** Fixed decimals, so the figures of the cards line up (0.050 beside 0.196, 3.70 s beside 2.91 s). */
const seconds = (s: number) => `${formatNumber(s, { digits: 2 })} s`;
const ms = (n: number) => `${formatNumber(Math.round(n))} ms`;
const factor = (n: number) => formatNumber(n, { digits: 3 });

export function Workbench() {
  const id = useId();
  const intl = useIntl();
  const saved = useStudio((s) => s.workbench);
  const voiceInUse = useStudio((s) => s.options.voice_code);
  const customVoices = useStudio((s) => s.customVoices);
  const setSentence = useStudio((s) => s.setWorkbenchSentence);
  const queueVoice = useStudio((s) => s.queueWorkbenchVoice);
  const unqueueVoice = useStudio((s) => s.unqueueWorkbenchVoice);
  const facts = useVoiceFacts();
  const measure = useMeasure();

  const fallback = defaultSentence(facts(saved.queue[0] ?? voiceInUse).language);
  const sentence = saved.sentence ?? fallback;
  const [toAdd, setToAdd] = useState(voiceInUse);
  const [results, setResults] = useState<Record<string, Result>>({});
  const [running, setRunning] = useState(false);
  const [playingAll, setPlayingAll] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  /** Every voice synthesises the sentence, none read from the sentence cache. */
  const [noCache, setNoCache] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const waves = useRef(new Map<string, ResultWave>());
  const stopAll = useRef(false);
  const addButton = useRef<HTMLButtonElement>(null);
  // A voice taken out goes with its focused × button: "Add to the comparison" takes the focus.
  const focusAddAfterRemoval = useFocusAfterRemoval(saved.queue, addButton);

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

  const tooLong = sentence.length > MAX_SENTENCE;
  const empty = sentence.trim() === '';
  // Ctrl/Cmd+Enter: "Speak with N voices", from any field of the workbench, when it can.
  const section = useRef<HTMLElement>(null);
  useShortcut(
    'speak',
    () => void speakAll(),
    !running && saved.queue.length > 0 && !tooLong && !empty,
    section,
  );

  return (
    <section ref={section} className="panel workbench" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        <FormattedMessage id="voices.workbench.title" defaultMessage="Voice workbench" />
      </h2>
      <p className="muted small">
        <FormattedMessage
          id="voices.workbench.intro"
          defaultMessage="Your own sentence, spoken by the voices you choose, side by side. Figures are measured in this window: first audio is the time from the request to its first byte of audio, the real-time factor the whole time divided by the audio's length (below 1 is faster than real time). Not charged."
        />
      </p>
      <div className="field">
        <label htmlFor={`${id}-sentence`}>
          <FormattedMessage id="voices.workbench.sentence" defaultMessage="Your sentence" />
        </label>
        <textarea
          id={`${id}-sentence`}
          rows={2}
          value={sentence}
          aria-invalid={tooLong || empty}
          aria-describedby={`${id}-sentence-help`}
          onChange={(e) => setSentence(e.target.value)}
        />
        <div className="row small" id={`${id}-sentence-help`}>
          <span className={tooLong ? 'error' : 'muted'}>
            <FormattedMessage
              id="voices.workbench.sentenceLength"
              defaultMessage="{count, number} / {max, number} characters{state, select, long {: too long for an audition} empty {: write something to speak} other {}}"
              values={{
                count: sentence.length,
                max: MAX_SENTENCE,
                state: tooLong ? 'long' : empty ? 'empty' : 'ok',
              }}
            />
          </span>
          <span className="spacer" />
          {saved.sentence !== null && (
            <button type="button" className="link small" onClick={() => setSentence(null)}>
              <FormattedMessage id="voices.workbench.useDefault" defaultMessage="Use the default sentence" />
            </button>
          )}
        </div>
      </div>
      <div className="row workbench-add">
        <div className="field">
          <label htmlFor={`${id}-add`}>
            <FormattedMessage id="voices.workbench.voiceToAdd" defaultMessage="Voice to compare" />
          </label>
          <VoiceSelect id={`${id}-add`} value={toAdd} onChange={setToAdd} />
        </div>
        <BusyButton
          ref={addButton}
          onClick={() => queueVoice(toAdd)}
          unavailable={!toAdd || saved.queue.includes(toAdd)}
        >
          <FormattedMessage id="voices.workbench.add" defaultMessage="Add to the comparison" />
        </BusyButton>
      </div>
      <TextLanguageNotice text={sentence} voiceCode={toAdd} customVoices={customVoices} onSwitch={setToAdd} />
      <div className="row workbench-actions">
        <BusyButton
          className="primary"
          onClick={() => void speakAll()}
          busy={running}
          unavailable={saved.queue.length === 0 || tooLong || empty}
        >
          {running
            ? intl.formatMessage(m.speaking)
            : intl.formatMessage(
                {
                  id: 'voices.workbench.speak',
                  defaultMessage: '{count, plural, one {Speak with # voice} other {Speak with # voices}}',
                },
                { count: saved.queue.length },
              )}
        </BusyButton>
        {playingAll ? (
          <button type="button" onClick={stopPlayingAll}>
            <FormattedMessage id="voices.workbench.stopPlaying" defaultMessage="Stop playing" />
          </button>
        ) : (
          <button type="button" onClick={() => void playAll()} disabled={done.length === 0 || running}>
            <FormattedMessage id="voices.workbench.playAll" defaultMessage="Play all" />
          </button>
        )}
        <button type="button" onClick={exportZip} disabled={done.length === 0 || running}>
          <FormattedMessage id="voices.workbench.export" defaultMessage="Export comparison (.zip)" />
        </button>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={noCache}
            onChange={(e) => setNoCache(e.target.checked)}
          />
          <FormattedMessage id="voices.workbench.noCache" defaultMessage="Measure without the cache" />
        </label>
        <span className="muted small" role="status">
          {playingAll
            ? intl.formatMessage(playing, {
                index: done.findIndex((r) => r.code === playingAll) + 1,
                count: done.length,
                name: facts(playingAll).name,
              })
            : notice}
        </span>
      </div>
      {saved.queue.length === 0 ? (
        <p className="muted small">
          <FormattedMessage
            id="voices.workbench.empty"
            defaultMessage="Add two or more voices to compare them."
          />
        </p>
      ) : (
        <ul
          className="workbench-results"
          aria-label={intl.formatMessage({
            id: 'voices.workbench.list',
            defaultMessage: 'Voices to compare',
          })}
        >
          {saved.queue.map((code) => (
            <ResultCard
              key={code}
              result={results[code] ?? { code, status: 'idle' }}
              facts={facts(code)}
              sentence={sentence}
              current={playingAll === code}
              wins={wins.get(code) ?? 0}
              register={register}
              onRemove={
                running
                  ? undefined
                  : () => {
                      focusAddAfterRemoval();
                      unqueueVoice(code);
                    }
              }
            />
          ))}
        </ul>
      )}
      <BlindTest sentence={sentence} disabled={tooLong || empty} />
    </section>
  );
}

function ResultCard({
  result,
  facts,
  sentence,
  current,
  wins,
  register,
  onRemove,
}: {
  result: Result;
  facts: VoiceFacts;
  /** The sentence the voices speak (a voice of another language gets a hint). */
  sentence: string;
  current: boolean;
  wins: number;
  register(code: string, wave: ResultWave | null): void;
  /** Takes the voice out of the comparison; absent while the voices speak. */
  onRemove: (() => void) | undefined;
}) {
  const favourite = useStudio((s) => s.workbench.favourites.includes(result.code));
  const note = useStudio((s) => s.workbench.notes[result.code] ?? '');
  const toggleFavourite = useStudio((s) => s.toggleWorkbenchFavourite);
  const setNote = useStudio((s) => s.setWorkbenchNote);
  const customVoices = useStudio((s) => s.customVoices);
  const deferred = useDeferredValue(sentence);
  const mismatch = useMemo(
    () => languageMismatch(deferred, result.code, customVoices),
    [deferred, result.code, customVoices],
  );
  const id = useId();
  const intl = useIntl();
  const named = { name: facts.name, code: facts.code };
  return (
    <li
      className={`workbench-result${current ? ' current' : ''}`}
      // eslint-disable-next-line messages/no-words-in-jsx -- the voice's own name and code, no words to translate
      aria-label={`${facts.name} (${facts.code})`}
    >
      <div className="row nowrap workbench-result-head">
        <span className="workbench-result-title">
          <span className="name">{facts.name}</span>
          <EngineBadge engine={facts.engine} />
          <span className="badge">{intl.formatMessage(KIND[facts.kind])}</span>
        </span>
        <button
          type="button"
          className={`icon star${favourite ? ' on' : ''}`}
          aria-pressed={favourite}
          aria-label={intl.formatMessage(
            { id: 'voices.workbench.favourite', defaultMessage: 'Favourite {name} ({code})' },
            named,
          )}
          title={
            favourite
              ? intl.formatMessage({ id: 'voices.workbench.isFavourite', defaultMessage: 'A favourite' })
              : intl.formatMessage({
                  id: 'voices.workbench.markFavourite',
                  defaultMessage: 'Mark as a favourite',
                })
          }
          onClick={() => toggleFavourite(result.code)}
        >
          {favourite ? '★' : '☆'}
        </button>
        <button
          type="button"
          className="icon"
          aria-label={intl.formatMessage(
            {
              id: 'voices.workbench.removeVoice',
              defaultMessage: 'Remove {name} ({code}) from the comparison',
            },
            named,
          )}
          title={intl.formatMessage({
            id: 'voices.workbench.remove',
            defaultMessage: 'Remove from the comparison',
          })}
          disabled={!onRemove}
          onClick={onRemove}
        >
          ×
        </button>
      </div>
      <code className="small">{facts.code}</code>
      {mismatch && (
        <p className="notice small workbench-language">
          {intl.formatMessage(MISMATCH, { language: mismatch.language, voice: facts.name })}
        </p>
      )}
      {result.status === 'idle' && (
        <p className="muted small">
          <FormattedMessage id="voices.workbench.idle" defaultMessage="Not spoken yet." />
        </p>
      )}
      {result.status === 'waiting' && (
        <p className="muted small">
          <FormattedMessage id="voices.workbench.waiting" defaultMessage="Waiting…" />
        </p>
      )}
      {result.status === 'speaking' && <p className="muted small">{intl.formatMessage(m.speaking)}</p>}
      {result.status === 'failed' && <p className="error">{result.error}</p>}
      {result.status === 'done' && <ResultAudio result={result} name={facts.name} register={register} />}
      {wins > 0 && (
        <p className="small muted">
          <FormattedMessage
            id="voices.workbench.wins"
            defaultMessage="{count, plural, one {# blind win} other {# blind wins}}"
            values={{ count: wins }}
          />
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-note`}>
          <FormattedMessage id="voices.workbench.note" defaultMessage="Note" />
        </label>
        <textarea
          id={`${id}-note`}
          rows={2}
          maxLength={1000}
          value={note}
          onChange={(e) => setNote(result.code, e.target.value)}
        />
      </div>
    </li>
  );
}

function ResultAudio({
  result,
  name,
  register,
}: {
  result: Extract<Result, { status: 'done' }>;
  name: string;
  register(code: string, wave: ResultWave | null): void;
}) {
  const container = useRef<HTMLDivElement | null>(null);
  const intl = useIntl();
  const { measured } = result;
  const wave = useResultWave(container, result.url, result.peaks, measured.info.duration);
  const cacheId = useId();
  const cached = measured.cache === 'hit' || measured.cache === 'partial';
  useEffect(() => {
    register(result.code, wave);
    return () => register(result.code, null);
  }, [register, result.code, wave]);
  return (
    <>
      <div className="workbench-wave" ref={container} aria-hidden="true" />
      {(cached || measured.cache === 'bypass') && (
        <div className={`workbench-cache${cached ? ' cached' : ''}`} id={cacheId}>
          <span className={`badge${cached ? ' warn' : ' ok'}`}>
            {intl.formatMessage(cacheMark.badge, { use: measured.cache ?? 'miss' })}
          </span>
          {cached && (
            <span className="small">
              {intl.formatMessage(cacheMark.explain, { use: measured.cache ?? 'miss' })}
            </span>
          )}
        </div>
      )}
      <dl className="workbench-figures" aria-describedby={cached ? cacheId : undefined}>
        <div>
          <dt>
            <FormattedMessage id="voices.workbench.figure.duration" defaultMessage="Duration" />
          </dt>
          <dd>{seconds(measured.info.duration)}</dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="voices.workbench.figure.firstAudio" defaultMessage="First audio" />
          </dt>
          <dd>{ms(measured.firstAudioMs)}</dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="voices.workbench.figure.total" defaultMessage="Total" />
          </dt>
          <dd>{ms(measured.totalMs)}</dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="voices.workbench.figure.rtf" defaultMessage="Real-time factor" />
          </dt>
          <dd>{factor(measured.rtf)}</dd>
        </div>
      </dl>
      <PlayToggle wave={wave} label={name} />
    </>
  );
}
