import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { downloadName } from '../../../../electron/shared/download-name';
import { EngineBadge } from '../../components/EngineBadge';
import { formatClock, formatCredits } from '../../lib/format';
import { voiceNameOf } from '../../lib/voice-codes';
import { useStudio } from '../../stores';
import { formatShown } from '../../lib/intl-text';
import { StatusBadge } from '../../components/StatusBadge';
import { useWaveform } from './useWaveform';
import { ProgressBar } from '../../components/ProgressBar';
import { ChapterList, SubtitleCues } from './ResultTimeline';
import { useResultTimeline } from './useResultTimeline';
import { useSaveDownload } from './useSaveDownload';
import { useSpaceToPlay } from './useSpaceToPlay';

/**
 * Where the focus may be taken from when a result arrives: nowhere in particular, Generate, the
 * editor or this panel. Elsewhere (a slider, another view's field) the user moved on: the
 * result is announced, not focused.
 */
function mayTakeFocus(active: Element | null): boolean {
  return !active || active === document.body || active.closest('[data-result-focus-from]') !== null;
}

/** Progress of the request and the preview of its result; the focus moves to it once it is there. */
export function GeneratePanel() {
  const job = useStudio((s) => s.job);
  const cancel = useStudio((s) => s.cancel);
  const customVoices = useStudio((s) => s.customVoices);
  const results = useStudio((s) => s.results);
  const id = useId();
  const running = job !== null && (job.status === 'new' || job.status === 'processing');
  const result = useRef<HTMLDivElement>(null);
  const seenResults = useRef(results);
  const intl = useIntl();

  useEffect(() => {
    if (results === seenResults.current) return;
    seenResults.current = results;
    if (mayTakeFocus(document.activeElement)) result.current?.focus();
  }, [results]);

  const summary = job
    ? intl.formatMessage(
        {
          id: 'preview.result.summary',
          defaultMessage:
            'Result: {voice}, {state, select, ready {ready} audio {{duration} of audio} cancelled {cancelled} failed {failed} other {in progress}}',
        },
        {
          voice: voiceNameOf(job.voice_code, customVoices),
          state:
            job.status === 'SUCCESS'
              ? job.duration_ms === null
                ? 'ready'
                : 'audio'
              : job.status === 'FAILURE'
                ? job.error_code === 'CANCELLED'
                  ? 'cancelled'
                  : 'failed'
                : 'progress',
          duration: job.duration_ms === null ? '' : formatClock(job.duration_ms / 1000, true),
        },
      )
    : intl.formatMessage({ id: 'preview.result', defaultMessage: 'Result' });

  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-result-focus-from>
      <div className="panel-head">
        <h2 id={`${id}-title`}>
          <FormattedMessage id="preview.title" defaultMessage="Preview" />
        </h2>
        <div className="row">
          {running && (
            <button type="button" className="danger" onClick={() => void cancel()}>
              <FormattedMessage id="common.cancel" defaultMessage="Cancel" />
            </button>
          )}
        </div>
      </div>
      <div ref={result} className="result-region" tabIndex={-1} role="region" aria-label={summary}>
        {!job && (
          <p className="muted">
            <FormattedMessage
              id="preview.empty"
              defaultMessage="Generate to hear the text here, with its subtitles."
            />
          </p>
        )}
        {job && (
          <div className="row small muted" style={{ marginBottom: 10 }}>
            <StatusBadge status={job.status} />
            <span>{voiceNameOf(job.voice_code, customVoices)}</span>
            <span>
              ·{' '}
              <FormattedMessage
                id="preview.characters"
                defaultMessage="{count, plural, one {# character} other {# characters}}"
                values={{ count: job.characters }}
              />
            </span>
            <span>
              ·{' '}
              <FormattedMessage
                id="preview.credits"
                defaultMessage="{credits} credits"
                values={{ credits: formatCredits(job.cost) }}
              />
            </span>
            {job.engine && (
              <span aria-label={intl.formatMessage({ id: 'preview.spokenBy', defaultMessage: 'Spoken by' })}>
                · <EngineBadge engine={job.engine} /> <code className="small">{job.engine}</code>
              </span>
            )}
            <code className="small">{job.request_id}</code>
          </div>
        )}
        {job && running && (
          <div>
            <ProgressBar
              label={intl.formatMessage({ id: 'preview.progress', defaultMessage: 'Synthesis progress' })}
              value={job.progress}
              minWidth={3}
            />
            <p className="hint">
              {job.status === 'new' ? (
                <FormattedMessage id="preview.queued" defaultMessage="Waiting in the queue…" />
              ) : (
                <FormattedMessage
                  id="preview.synthesising"
                  defaultMessage="Synthesising… {progress}%"
                  values={{ progress: job.progress }}
                />
              )}
            </p>
          </div>
        )}
        {job?.status === 'FAILURE' &&
          (job.error_code === 'CANCELLED' ? (
            <p className="hint" role="status">
              <FormattedMessage
                id="preview.cancelled"
                defaultMessage="Cancelled. The credits were refunded."
              />
            </p>
          ) : (
            <p className="error" role="alert">
              <FormattedMessage
                id="preview.failed"
                defaultMessage="The request failed: {error} (credits refunded)."
                values={{ error: job.error_message ?? job.error_code }}
              />
            </p>
          ))}
        {job?.status === 'SUCCESS' && job.audio_link && (
          <Player
            key={job.request_id}
            requestId={job.request_id}
            audioLink={job.audio_link}
            srtLink={job.srt_link}
            text={job.input_text}
            voiceCode={job.voice_code}
          />
        )}
      </div>
    </section>
  );
}

function Player({
  requestId,
  audioLink,
  srtLink,
  text,
  voiceCode,
}: {
  requestId: string;
  audioLink: string;
  srtLink: string | null;
  /** The request's text and voice: the downloads are named after them. */
  text: string;
  voiceCode: string;
}) {
  const intl = useIntl();
  const container = useRef<HTMLDivElement>(null);
  const { cues, chapters, srtError } = useResultTimeline(requestId, srtLink);
  const markers = useMemo(() => cues.map((c) => c.start), [cues]);
  const extension = audioLink.split('.').pop() ?? 'mp3';
  // OpenAI's raw `pcm` has no header: no browser can play it, so it is only offered to download.
  const playable = extension !== 'pcm';
  const wave = useWaveform(container, playable ? audioLink : null, markers, chapters);
  const [zoom, setZoom] = useState(0);
  const { playPause, zoom: applyZoom } = wave;

  useSpaceToPlay(playPause);

  useEffect(() => {
    if (wave.ready) applyZoom(zoom);
  }, [zoom, wave.ready, applyZoom]);

  const fileName = downloadName({ text, voice: voiceCode, extension });
  const srtName = downloadName({ text, voice: voiceCode, extension: 'srt' });
  const { saveMessage, onDownload } = useSaveDownload();

  return (
    <div>
      <div className="waveform-wrap">
        <div
          ref={container}
          className="waveform"
          aria-label={intl.formatMessage({
            id: 'preview.waveform',
            defaultMessage: 'Waveform: click to seek',
          })}
          role="group"
        />
      </div>
      {!playable && (
        <p className="hint" role="status">
          <FormattedMessage
            id="preview.pcm"
            defaultMessage="Raw PCM (16-bit little-endian, mono, 24 kHz, no header) cannot be played here: download it."
          />
        </p>
      )}
      {wave.error && (
        <p className="error">
          <FormattedMessage
            id="preview.audioError"
            defaultMessage="The audio could not be loaded: {error}"
            values={{ error: wave.error }}
          />
        </p>
      )}
      <div className="row" style={{ marginTop: 10 }}>
        <button
          type="button"
          className="primary"
          onClick={playPause}
          disabled={!wave.ready}
          aria-keyshortcuts="Space"
        >
          {wave.playing ? (
            <FormattedMessage id="preview.pause" defaultMessage="Pause" />
          ) : (
            <FormattedMessage id="common.play" defaultMessage="Play" />
          )}
        </button>
        <span
          className="time"
          aria-label={intl.formatMessage({ id: 'preview.time', defaultMessage: 'Current time and duration' })}
        >
          {formatClock(wave.time, true)} / {formatClock(wave.duration, true)}
        </span>
        <span className="spacer" />
        <label className="row small">
          <FormattedMessage id="preview.zoom" defaultMessage="Zoom" />
          <input
            type="range"
            min={0}
            max={400}
            step={10}
            value={zoom}
            onChange={(e) => setZoom(Number(e.target.value))}
            aria-label={intl.formatMessage({
              id: 'preview.zoom.label',
              defaultMessage: 'Zoom, pixels per second',
            })}
            style={{ width: 120 }}
          />
        </label>
        <a
          className="button"
          href={audioLink}
          download={fileName}
          onClick={onDownload('audio', audioLink, fileName)}
        >
          <FormattedMessage id="preview.download.audio" defaultMessage="Download audio" />
        </a>
        {srtLink && (
          <a
            className="button"
            href={srtLink}
            download={srtName}
            onClick={onDownload('srt', srtLink, srtName)}
          >
            <FormattedMessage id="preview.download.srt" defaultMessage="Download SRT" />
          </a>
        )}
      </div>
      {saveMessage && (
        <p className="hint" role="status">
          {formatShown(intl, saveMessage)}
        </p>
      )}
      {srtError && (
        <p className="error">
          <FormattedMessage
            id="preview.subtitles.error"
            defaultMessage="Subtitles could not be loaded: {error}"
            values={{ error: srtError }}
          />
        </p>
      )}
      {chapters.length > 0 && <ChapterList chapters={chapters} time={wave.time} onSeek={wave.seekTo} />}
      {srtLink && <SubtitleCues cues={cues} time={wave.time} onSeek={wave.seekTo} />}
    </div>
  );
}
