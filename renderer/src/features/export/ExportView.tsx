import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import {
  exportRenderShare,
  MASTERING_PRESETS,
  type BookFormat,
  type ExportRecord,
  type FolderFormat,
  type MasteringPresetName,
} from '../../../../electron/shared/book-exports';
import { VoiceSelect } from '../../components/VoiceSelect';
import { catalogueVoiceOf } from '../../lib/voice-codes';
import { errorMessage } from '../../lib/api-client';
import { createFollower } from '../../lib/follow';
import { TimeLeft } from '../../components/TimeLeft';
import { formatCredits, formatNumber, formatTime } from '../../lib/format';
import { useClient, useStudio } from '../../stores';
import type { ExportDraft } from '../../stores/export-slice';
import { ExportResult } from './ExportResult';
import { readBase64 } from '../../lib/read-file';
import { ProgressBar } from '../../components/ProgressBar';
import { describeFailure } from '../../i18n/error-messages';
import { BusyButton } from '../../components/BusyButton';

const PRESET_LABELS = defineMessages<MasteringPresetName>({
  acx: { id: 'export.preset.acx', defaultMessage: 'ACX (audiobook retailers)' },
  podcast: { id: 'export.preset.podcast', defaultMessage: 'Podcast' },
  none: { id: 'export.preset.none', defaultMessage: 'None' },
});

/** What each preset aims at (docs/USER-GUIDE.md, "Chapters and audiobook export"). */
const PRESET_HINTS = defineMessages<MasteringPresetName>({
  acx: {
    id: 'export.preset.acx.hint',
    defaultMessage: 'RMS −23 to −18 dBFS, peaks at most −3 dBFS, room tone, 44.1 kHz.',
  },
  podcast: {
    id: 'export.preset.podcast.hint',
    defaultMessage: '−16 LUFS integrated (±1 LU), peaks at most −1 dBFS, 44.1 kHz.',
  },
  none: { id: 'export.preset.none.hint', defaultMessage: 'The voice as rendered: no gain, no limiter.' },
});

const FORMAT_LABELS = defineMessages<BookFormat>({
  m4b: { id: 'export.format.m4b', defaultMessage: 'M4B audiobook (AAC, chapters)' },
  mp3: { id: 'export.format.mp3', defaultMessage: 'MP3 with chapters (ID3 CHAP)' },
  folder: { id: 'export.format.folder', defaultMessage: 'One file per chapter (zip)' },
});

const m = defineMessages({
  coverType: { id: 'export.cover.wrongType', defaultMessage: 'The cover must be a JPEG or PNG picture.' },
  coverSize: { id: 'export.cover.tooLarge', defaultMessage: 'The cover must be at most 2 MiB.' },
  coverInput: { id: 'export.cover.input', defaultMessage: 'Cover (JPEG or PNG, at most 2 MiB)' },
  result: { id: 'export.result.label', defaultMessage: 'Export result' },
  untitledBook: { id: 'export.result.untitled', defaultMessage: 'Untitled book' },
  progress: { id: 'export.progress.label', defaultMessage: 'Export progress' },
});

/** Covers larger than this are refused by the server; said here before the upload. */
const MAX_COVER_BYTES = 2 * 1024 * 1024;

const isFinal = (record: ExportRecord) => record.status === 'SUCCESS' || record.status === 'FAILURE';

/** The Export page: a book (chapters from headings) to an audiobook file, with its loudness report. */
export function ExportView() {
  const client = useClient();
  const id = useId();
  const intl = useIntl();
  const studioText = useStudio((s) => s.text);
  const options = useStudio((s) => s.options);
  const customVoices = useStudio((s) => s.customVoices);
  const refreshSession = useStudio((s) => s.refreshSession);
  // The page's fields live in the store (export-slice): they outlast a visit to another view.
  const draft = useStudio((s) => s.exportDraft);
  const update = useStudio((s) => s.updateExportDraft);
  const { text, title, author, preset, format, folderFormat, cover } = draft;
  const voice = draft.voice ?? options.voice_code;
  const setText = (value: string) => update({ text: value });
  const setTitle = (value: string) => update({ title: value });
  const setAuthor = (value: string) => update({ author: value });
  const setVoice = (value: string) => update({ voice: value });
  const setPreset = (value: MasteringPresetName) => update({ preset: value });
  const setFormat = (value: BookFormat) => update({ format: value });
  const setFolderFormat = (value: FolderFormat) => update({ folderFormat: value });
  const setCover = (value: ExportDraft['cover']) => update({ cover: value });
  const [record, setRecord] = useState<ExportRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [recent, setRecent] = useState<ExportRecord[]>([]);
  /** Follows one export at a time: a newer one makes the older loop stop. */
  const [follower] = useState(createFollower);
  const coverInput = useRef<HTMLInputElement>(null);

  const fail = useCallback((e: unknown) => setError(errorMessage(e)), []);

  const loadRecent = useCallback(async () => {
    try {
      setRecent((await client.listExports(1, 10)).items);
    } catch (e) {
      fail(e);
    }
  }, [client, fail]);

  useEffect(() => {
    // First load on the next tick (not inside the effect body); leaving the page stops following.
    const first = setTimeout(() => void loadRecent(), 0);
    return () => {
      clearTimeout(first);
      follower.stop();
    };
  }, [loadRecent, follower]);

  /** Follows an export: `export` events move the bar; a re-read every second backs them up. */
  const follow = useCallback(
    (exportId: string) =>
      follower.follow({
        pollMs: 1000,
        read: () => client.exportRecord(exportId),
        show: setRecord,
        isFinal,
        done() {
          void refreshSession();
          void loadRecent();
        },
        fail,
        listen: ({ signal, current, wake }) =>
          client.streamEvents(
            {
              onExport(event) {
                if (!current() || event.export_id !== exportId) return;
                setRecord((r) => (r && r.export_id === exportId ? { ...r, ...event } : r));
                if (event.status === 'SUCCESS' || event.status === 'FAILURE') wake();
              },
            },
            signal,
          ),
      }),
    [client, fail, follower, loadRecent, refreshSession],
  );

  const start = async () => {
    setError(null);
    setBusy(true);
    try {
      const accepted = await client.startExport({
        input_text: text,
        voice_code: voice,
        model_id: options.model_id,
        speed_rate: options.speed_rate,
        pitch_rate: options.pitch_rate,
        volume: options.volume,
        preset,
        format,
        ...(format === 'folder' ? { folder_format: folderFormat } : {}),
        ...(title.trim() ? { title: title.trim() } : {}),
        ...(author.trim() ? { author: author.trim() } : {}),
        ...(cover ? { cover: cover.base64 } : {}),
      });
      setRecord(accepted);
      void refreshSession();
      void loadRecent();
      void follow(accepted.export_id);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (!record) return;
    try {
      setRecord(await client.cancelExport(record.export_id));
      void refreshSession();
      void loadRecent();
    } catch (e) {
      fail(e);
    }
  };

  const remove = async (exportId: string) => {
    try {
      await client.removeExport(exportId);
      if (record?.export_id === exportId) {
        follower.stop();
        setRecord(null);
      }
      await loadRecent();
    } catch (e) {
      fail(e);
    }
  };

  const chooseCover = async (file: File | undefined) => {
    setError(null);
    if (!file) return setCover(null);
    if (!/^image\/(jpeg|png)$/.test(file.type)) return setError(intl.formatMessage(m.coverType));
    if (file.size > MAX_COVER_BYTES) return setError(intl.formatMessage(m.coverSize));
    try {
      setCover({ name: file.name, base64: await readBase64(file), type: file.type });
    } catch (e) {
      fail(e);
    }
  };

  const running = record !== null && !isFinal(record);
  const voiceInfo = catalogueVoiceOf(voice, customVoices);

  return (
    <section aria-labelledby={`${id}-title`}>
      <div className="page-head">
        <div>
          <h1 id={`${id}-title`}>
            <FormattedMessage id="export.title" defaultMessage="Export" />
          </h1>
          <p>
            <FormattedMessage
              id="export.intro"
              defaultMessage="A book to one audiobook file with chapters, or a file per chapter. <code>#</code> and <code>##</code> headings and <code>[chapter: Title]</code> lines start chapters."
              values={{ code: (chunks) => <code>{chunks}</code> }}
            />
          </p>
        </div>
      </div>

      <div className="export-grid">
        <div className="panel">
          <div className="panel-head">
            <h2>
              <FormattedMessage id="export.book.heading" defaultMessage="Book" />
            </h2>
            <button type="button" onClick={() => setText(studioText)} disabled={studioText.trim() === ''}>
              <FormattedMessage id="export.book.useStudioText" defaultMessage="Use the Studio text" />
            </button>
          </div>
          <div className="field">
            <label htmlFor={`${id}-text`}>
              <FormattedMessage id="export.book.text" defaultMessage="Book text" />
            </label>
            <textarea
              id={`${id}-text`}
              rows={9}
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={intl.formatMessage(
                {
                  id: 'export.book.text.placeholder',
                  defaultMessage:
                    '# Chapter One{br}{br}It was a bright cold day in April…{br}{br}# Chapter Two{br}{br}…',
                },
                { br: '\n' },
              )}
            />
          </div>
          <div className="export-tags">
            <div className="field">
              <label htmlFor={`${id}-book-title`}>
                <FormattedMessage id="export.book.title" defaultMessage="Title" />
              </label>
              <input
                id={`${id}-book-title`}
                type="text"
                value={title}
                onChange={(e) => setTitle(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-author`}>
                <FormattedMessage id="export.book.author" defaultMessage="Author" />
              </label>
              <input
                id={`${id}-author`}
                type="text"
                value={author}
                onChange={(e) => setAuthor(e.target.value)}
              />
            </div>
          </div>
          <div className="field">
            <span className="field-label">
              <FormattedMessage id="export.cover.heading" defaultMessage="Cover" />
            </span>
            <div className="row">
              <input
                ref={coverInput}
                type="file"
                accept="image/jpeg,image/png"
                className="visually-hidden"
                aria-label={intl.formatMessage(m.coverInput)}
                tabIndex={-1}
                onChange={(e) => void chooseCover(e.target.files?.[0])}
              />
              <button type="button" onClick={() => coverInput.current?.click()}>
                {cover ? (
                  <FormattedMessage id="export.cover.change" defaultMessage="Change cover…" />
                ) : (
                  <FormattedMessage id="export.cover.choose" defaultMessage="Choose cover…" />
                )}
              </button>
              {cover ? (
                <>
                  <img
                    className="export-cover"
                    src={`data:${cover.type};base64,${cover.base64}`}
                    alt={intl.formatMessage(
                      { id: 'export.cover.alt', defaultMessage: 'Cover: {name}' },
                      { name: cover.name },
                    )}
                  />
                  <button type="button" className="link" onClick={() => setCover(null)}>
                    <FormattedMessage id="export.cover.remove" defaultMessage="Remove cover" />
                  </button>
                </>
              ) : (
                <span className="hint">
                  <FormattedMessage id="export.cover.hint" defaultMessage="JPEG or PNG, at most 2 MiB" />
                </span>
              )}
            </div>
          </div>
        </div>

        <aside className="panel">
          <div className="panel-head">
            <h2>
              <FormattedMessage id="export.audiobook.heading" defaultMessage="Audiobook" />
            </h2>
          </div>
          <div className="field">
            <label htmlFor={`${id}-voice`}>
              <FormattedMessage id="export.voice" defaultMessage="Voice" />
            </label>
            <VoiceSelect id={`${id}-voice`} value={voice} onChange={setVoice} />
            <p className="hint">
              <FormattedMessage
                id="export.voice.hint"
                defaultMessage="Speed {speed}, pitch {pitch} and volume {volume} come from the Studio."
                values={{
                  speed: formatNumber(options.speed_rate, { digits: 1 }),
                  pitch: formatNumber(options.pitch_rate, { digits: 1 }),
                  volume: options.volume,
                }}
              />{' '}
              {voiceInfo && (
                <FormattedMessage
                  id="export.voice.price"
                  defaultMessage="{credits} credits per {characters} characters."
                  values={{ credits: formatCredits(voiceInfo.price), characters: formatNumber(1000) }}
                />
              )}
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-preset`}>
              <FormattedMessage id="export.preset" defaultMessage="Mastering preset" />
            </label>
            <select
              id={`${id}-preset`}
              value={preset}
              onChange={(e) => setPreset(e.target.value as MasteringPresetName)}
            >
              {MASTERING_PRESETS.map((p) => (
                <option key={p} value={p}>
                  {intl.formatMessage(PRESET_LABELS[p])}
                </option>
              ))}
            </select>
            <p className="hint">{intl.formatMessage(PRESET_HINTS[preset])}</p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-format`}>
              <FormattedMessage id="export.format" defaultMessage="Format" />
            </label>
            <select
              id={`${id}-format`}
              value={format}
              onChange={(e) => setFormat(e.target.value as BookFormat)}
            >
              {(Object.keys(FORMAT_LABELS) as BookFormat[]).map((f) => (
                <option key={f} value={f}>
                  {intl.formatMessage(FORMAT_LABELS[f])}
                </option>
              ))}
            </select>
          </div>
          {format === 'folder' && (
            <div className="field">
              <label htmlFor={`${id}-folder-format`}>
                <FormattedMessage id="export.folderFormat" defaultMessage="Each chapter as" />
              </label>
              <select
                id={`${id}-folder-format`}
                value={folderFormat}
                onChange={(e) => setFolderFormat(e.target.value as FolderFormat)}
              >
                <option value="mp3">MP3</option>
                <option value="wav">WAV</option>
              </select>
            </div>
          )}
          <div className="row">
            <BusyButton
              className="primary"
              onClick={() => void start()}
              busy={busy || running}
              unavailable={text.trim() === ''}
            >
              <FormattedMessage id="export.start" defaultMessage="Export book" />
            </BusyButton>
            {running && (
              <button type="button" className="danger" onClick={() => void cancel()}>
                <FormattedMessage id="export.cancel" defaultMessage="Cancel export" />
              </button>
            )}
          </div>
        </aside>
      </div>

      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}

      {record && (
        <section className="panel" aria-label={intl.formatMessage(m.result)}>
          <div className="panel-head">
            <h2>{record.title ?? intl.formatMessage(m.untitledBook)}</h2>
            <span
              className={`badge ${record.status === 'SUCCESS' ? 'ok' : record.status === 'FAILURE' ? 'bad' : 'accent'}`}
              role="status"
            >
              <FormattedMessage
                id="export.result.status"
                defaultMessage="{status, select, new {queued} processing {exporting} SUCCESS {SUCCESS} FAILURE {FAILURE} other {{status}}}"
                values={{ status: record.status }}
              />
            </span>
          </div>
          {running && (
            <div>
              <ProgressBar
                label={intl.formatMessage(m.progress)}
                value={record.progress * 100}
                minWidth={3}
              />
              <p className="hint">
                {record.status === 'new' ? (
                  <FormattedMessage id="export.progress.queued" defaultMessage="Waiting in the queue…" />
                ) : record.progress < exportRenderShare(record.preset) ? (
                  <FormattedMessage
                    id="export.progress.rendering"
                    defaultMessage="Rendering the chapters… {progress, number, percent}"
                    values={{ progress: record.progress }}
                  />
                ) : (
                  <FormattedMessage
                    id="export.progress.mastering"
                    defaultMessage="Mastering and encoding… {progress, number, percent}"
                    values={{ progress: record.progress }}
                  />
                )}
                {record.status === 'processing' && record.eta_seconds != null && (
                  <>
                    {' · '}
                    <TimeLeft seconds={record.eta_seconds} />
                  </>
                )}
              </p>
            </div>
          )}
          {record.status === 'FAILURE' &&
            (record.error_code === 'CANCELLED' ? (
              <p className="hint">
                <FormattedMessage
                  id="export.cancelled"
                  defaultMessage="Cancelled. The credits were refunded."
                />
              </p>
            ) : (
              <p className="error" role="alert">
                <FormattedMessage
                  id="export.failed"
                  defaultMessage="The export failed: {reason} (credits refunded)."
                  values={{
                    reason: describeFailure(
                      intl,
                      record.error_code,
                      record.error_message,
                      record.error_details,
                    ),
                  }}
                />
              </p>
            ))}
          {record.status === 'SUCCESS' && <ExportResult record={record} />}
        </section>
      )}

      {recent.length > 0 && (
        <div className="panel">
          <h2 id={`${id}-recent`} style={{ marginBottom: 10 }}>
            <FormattedMessage id="export.recent.heading" defaultMessage="Recent exports" />
          </h2>
          <table className="data" aria-labelledby={`${id}-recent`}>
            <thead>
              <tr>
                <th scope="col">
                  <FormattedMessage id="export.recent.book" defaultMessage="Book" />
                </th>
                <th scope="col">
                  <FormattedMessage id="export.format" defaultMessage="Format" />
                </th>
                <th scope="col">
                  <FormattedMessage id="export.recent.status" defaultMessage="Status" />
                </th>
                <th scope="col">
                  <FormattedMessage id="export.recent.started" defaultMessage="Started" />
                </th>
                <th scope="col">
                  <span className="visually-hidden">
                    <FormattedMessage id="common.actions" defaultMessage="Actions" />
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {recent.map((r) => (
                <tr key={r.export_id}>
                  <td>
                    {r.title ?? (
                      <span className="muted">
                        <FormattedMessage id="export.recent.untitled" defaultMessage="Untitled" />
                      </span>
                    )}
                  </td>
                  <td>
                    <FormattedMessage
                      id="export.recent.format"
                      defaultMessage="{format, select, folder {zip of {folderFormat}} other {{format}}} · {preset}"
                      values={{ format: r.format, folderFormat: r.folder_format ?? 'mp3', preset: r.preset }}
                    />
                  </td>
                  <td>
                    {r.status === 'FAILURE' ? (
                      (r.error_code ?? 'FAILURE')
                    ) : (
                      <FormattedMessage
                        id="export.recent.statusValue"
                        defaultMessage="{status, select, new {new} processing {processing} SUCCESS {SUCCESS} other {{status}}}"
                        values={{ status: r.status }}
                      />
                    )}
                  </td>
                  <td className="small">{formatTime(r.created_at)}</td>
                  <td className="actions">
                    <button type="button" onClick={() => (setRecord(r), void follow(r.export_id))}>
                      <FormattedMessage id="export.recent.open" defaultMessage="Open" />
                    </button>
                    {r.file_link && (
                      <a className="button" href={r.file_link} download>
                        <FormattedMessage id="export.recent.download" defaultMessage="Download" />
                      </a>
                    )}
                    <button
                      type="button"
                      className="danger"
                      onClick={() => void remove(r.export_id)}
                      aria-label={intl.formatMessage(
                        { id: 'export.recent.remove', defaultMessage: 'Remove export {title}' },
                        { title: r.title ?? r.export_id },
                      )}
                    >
                      <FormattedMessage id="common.remove" defaultMessage="Remove" />
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
