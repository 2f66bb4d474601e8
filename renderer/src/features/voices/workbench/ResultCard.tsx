import { useDeferredValue, useEffect, useId, useMemo, useRef } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { EngineBadge } from '../../../components/EngineBadge';
import { formatNumber } from '../../../lib/format';
import { useStudio } from '../../../stores';
import { languageMismatch, MISMATCH } from '../../compose/TextLanguageNotice';
import { PlayToggle } from './PlayToggle';
import { useResultWave, type ResultWave } from './useResultWave';
import type { Result, VoiceFacts } from './voice-results';

/** What a voice's kind is called on its card (the CSV has the machine value, `catalogue` or `custom`). */
export const KIND = defineMessages({
  catalogue: { id: 'voices.workbench.kind.catalogue', defaultMessage: 'catalogue' },
  custom: { id: 'voices.workbench.kind.custom', defaultMessage: 'your voice' },
});

/** Words the workbench and its cards share. */
export const workbenchMessages = defineMessages({
  csvFile: { id: 'voices.workbench.csv.fileName', defaultMessage: 'comparison.csv' },
  speaking: { id: 'voices.workbench.speaking', defaultMessage: 'Speaking…' },
});

const m = workbenchMessages;

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
/** Fixed decimals, so the figures of the cards line up (0.050 beside 0.196, 3.70 s beside 2.91 s). */
const seconds = (s: number) => `${formatNumber(s, { digits: 2 })} s`;
const ms = (n: number) => `${formatNumber(Math.round(n))} ms`;
const factor = (n: number) => formatNumber(n, { digits: 3 });

/** One voice of the comparison: its name and kind, favourite, remove, its result (audio, figures), blind wins and note. */
export function ResultCard({
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
