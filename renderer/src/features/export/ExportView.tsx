import { useCallback, useEffect, useId, useRef, useState } from 'react';
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
import { errorMessage, isSignedOut } from '../../lib/api-client';
import { formatCredits, formatNumber, formatTime } from '../../lib/format';
import { useClient, useStudio } from '../../stores';
import type { ExportDraft } from '../../stores/export-slice';
import { ExportResult } from './ExportResult';
import { readBase64 } from '../../lib/read-file';
import { ProgressBar } from '../../components/ProgressBar';

const PRESET_LABELS: Record<MasteringPresetName, string> = {
  acx: 'ACX (audiobook retailers)',
  podcast: 'Podcast',
  none: 'None',
};

/** What each preset aims at (docs/GUIDE.md, "Chapters and audiobook export"). */
const PRESET_HINTS: Record<MasteringPresetName, string> = {
  acx: 'RMS −23 to −18 dBFS, peaks at most −3 dBFS, room tone, 44.1 kHz.',
  podcast: '−16 LUFS integrated (±1 LU), peaks at most −1 dBFS, 44.1 kHz.',
  none: 'The voice as rendered: no gain, no limiter.',
};

const FORMAT_LABELS: Record<BookFormat, string> = {
  m4b: 'M4B audiobook (AAC, chapters)',
  mp3: 'MP3 with chapters (ID3 CHAP)',
  folder: 'One file per chapter (zip)',
};

/** Covers larger than this are refused by the server; said here before the upload. */
const MAX_COVER_BYTES = 2 * 1024 * 1024;

const isFinal = (record: ExportRecord) => record.status === 'SUCCESS' || record.status === 'FAILURE';

/** The Export page: a book (chapters from headings) to an audiobook file, with its loudness report. */
export function ExportView() {
  const client = useClient();
  const id = useId();
  const studioText = useStudio((s) => s.text);
  const options = useStudio((s) => s.options);
  const customVoices = useStudio((s) => s.customVoices);
  const refreshSession = useStudio((s) => s.refreshSession);
  const markSignedOut = useStudio((s) => s.markSignedOut);
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
  /** The export being followed; a newer one makes the older loop stop. */
  const following = useRef(0);
  const coverInput = useRef<HTMLInputElement>(null);

  const fail = useCallback(
    (e: unknown) => {
      if (isSignedOut(e)) markSignedOut();
      setError(errorMessage(e));
    },
    [markSignedOut],
  );

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
    const stop = following;
    return () => {
      clearTimeout(first);
      stop.current++;
    };
  }, [loadRecent]);

  /** Follows an export: `export` events move the bar; a re-read every second backs them up. */
  const follow = useCallback(
    async (exportId: string) => {
      const mine = ++following.current;
      const stream = new AbortController();
      let wake: (() => void) | undefined;
      client
        .streamEvents(
          {
            onExport(event) {
              if (mine !== following.current || event.export_id !== exportId) return;
              setRecord((r) => (r && r.export_id === exportId ? { ...r, ...event } : r));
              if (event.status === 'SUCCESS' || event.status === 'FAILURE') wake?.();
            },
          },
          stream.signal,
        )
        .catch(() => undefined);
      try {
        while (mine === following.current) {
          const latest = await client.exportRecord(exportId);
          if (mine !== following.current) return;
          setRecord(latest);
          if (isFinal(latest)) {
            void refreshSession();
            void loadRecent();
            return;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, 1000);
          });
        }
      } catch (e) {
        if (mine === following.current) fail(e);
      } finally {
        stream.abort();
      }
    },
    [client, fail, loadRecent, refreshSession],
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
        following.current++;
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
    if (!/^image\/(jpeg|png)$/.test(file.type)) return setError('The cover must be a JPEG or PNG picture.');
    if (file.size > MAX_COVER_BYTES) return setError('The cover must be at most 2 MiB.');
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
          <h1 id={`${id}-title`}>Export</h1>
          <p>
            A book to one audiobook file with chapters, or a file per chapter. <code>#</code> and{' '}
            <code>##</code> headings and <code>[chapter: Title]</code> lines start chapters.
          </p>
        </div>
      </div>

      <div className="export-grid">
        <div className="panel">
          <div className="panel-head">
            <h2>Book</h2>
            <button type="button" onClick={() => setText(studioText)} disabled={studioText.trim() === ''}>
              Use the Studio text
            </button>
          </div>
          <div className="field">
            <label htmlFor={`${id}-text`}>Book text</label>
            <textarea
              id={`${id}-text`}
              rows={9}
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={'# Chapter One\n\nIt was a bright cold day in April…\n\n# Chapter Two\n\n…'}
            />
          </div>
          <div className="export-tags">
            <div className="field">
              <label htmlFor={`${id}-book-title`}>Title</label>
              <input
                id={`${id}-book-title`}
                type="text"
                value={title}
                onChange={(e) => setTitle(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-author`}>Author</label>
              <input
                id={`${id}-author`}
                type="text"
                value={author}
                onChange={(e) => setAuthor(e.target.value)}
              />
            </div>
          </div>
          <div className="field">
            <span className="field-label">Cover</span>
            <div className="row">
              <input
                ref={coverInput}
                type="file"
                accept="image/jpeg,image/png"
                className="visually-hidden"
                aria-label="Cover (JPEG or PNG, at most 2 MiB)"
                tabIndex={-1}
                onChange={(e) => void chooseCover(e.target.files?.[0])}
              />
              <button type="button" onClick={() => coverInput.current?.click()}>
                {cover ? 'Change cover…' : 'Choose cover…'}
              </button>
              {cover ? (
                <>
                  <img
                    className="export-cover"
                    src={`data:${cover.type};base64,${cover.base64}`}
                    alt={`Cover: ${cover.name}`}
                  />
                  <button type="button" className="link" onClick={() => setCover(null)}>
                    Remove cover
                  </button>
                </>
              ) : (
                <span className="hint">JPEG or PNG, at most 2 MiB</span>
              )}
            </div>
          </div>
        </div>

        <aside className="panel">
          <div className="panel-head">
            <h2>Audiobook</h2>
          </div>
          <div className="field">
            <label htmlFor={`${id}-voice`}>Voice</label>
            <VoiceSelect id={`${id}-voice`} value={voice} onChange={setVoice} />
            <p className="hint">
              Speed {formatNumber(options.speed_rate, { digits: 1 })}, pitch{' '}
              {formatNumber(options.pitch_rate, { digits: 1 })} and volume {options.volume} come from the
              Studio.{' '}
              {voiceInfo
                ? `${formatCredits(voiceInfo.price)} credits per ${formatNumber(1000)} characters.`
                : ''}
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-preset`}>Mastering preset</label>
            <select
              id={`${id}-preset`}
              value={preset}
              onChange={(e) => setPreset(e.target.value as MasteringPresetName)}
            >
              {MASTERING_PRESETS.map((p) => (
                <option key={p} value={p}>
                  {PRESET_LABELS[p]}
                </option>
              ))}
            </select>
            <p className="hint">{PRESET_HINTS[preset]}</p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-format`}>Format</label>
            <select
              id={`${id}-format`}
              value={format}
              onChange={(e) => setFormat(e.target.value as BookFormat)}
            >
              {(Object.keys(FORMAT_LABELS) as BookFormat[]).map((f) => (
                <option key={f} value={f}>
                  {FORMAT_LABELS[f]}
                </option>
              ))}
            </select>
          </div>
          {format === 'folder' && (
            <div className="field">
              <label htmlFor={`${id}-folder-format`}>Each chapter as</label>
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
            <button
              type="button"
              className="primary"
              onClick={() => void start()}
              disabled={busy || running || text.trim() === ''}
            >
              Export book
            </button>
            {running && (
              <button type="button" className="danger" onClick={() => void cancel()}>
                Cancel export
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
        <section className="panel" aria-label="Export result">
          <div className="panel-head">
            <h2>{record.title ?? 'Untitled book'}</h2>
            <span
              className={`badge ${record.status === 'SUCCESS' ? 'ok' : record.status === 'FAILURE' ? 'bad' : 'accent'}`}
              role="status"
            >
              {record.status === 'new'
                ? 'queued'
                : record.status === 'processing'
                  ? 'exporting'
                  : record.status}
            </span>
          </div>
          {running && (
            <div>
              <ProgressBar label="Export progress" value={record.progress * 100} minWidth={3} />
              <p className="hint">
                {record.status === 'new'
                  ? 'Waiting in the queue…'
                  : record.progress < exportRenderShare(record.preset)
                    ? `Rendering the chapters… ${Math.round(record.progress * 100)}%`
                    : `Mastering and encoding… ${Math.round(record.progress * 100)}%`}
              </p>
            </div>
          )}
          {record.status === 'FAILURE' &&
            (record.error_code === 'CANCELLED' ? (
              <p className="hint">Cancelled. The credits were refunded.</p>
            ) : (
              <p className="error" role="alert">
                The export failed: {record.error_message ?? record.error_code} (credits refunded).
              </p>
            ))}
          {record.status === 'SUCCESS' && <ExportResult record={record} />}
        </section>
      )}

      {recent.length > 0 && (
        <div className="panel">
          <h2 id={`${id}-recent`} style={{ marginBottom: 10 }}>
            Recent exports
          </h2>
          <table className="data" aria-labelledby={`${id}-recent`}>
            <thead>
              <tr>
                <th scope="col">Book</th>
                <th scope="col">Format</th>
                <th scope="col">Status</th>
                <th scope="col">Started</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {recent.map((r) => (
                <tr key={r.export_id}>
                  <td>{r.title ?? <span className="muted">Untitled</span>}</td>
                  <td>
                    {r.format === 'folder' ? `zip of ${r.folder_format ?? 'mp3'}` : r.format} · {r.preset}
                  </td>
                  <td>{r.status === 'FAILURE' ? (r.error_code ?? 'FAILURE') : r.status}</td>
                  <td className="small">{formatTime(r.created_at)}</td>
                  <td className="actions">
                    <button type="button" onClick={() => (setRecord(r), void follow(r.export_id))}>
                      Open
                    </button>
                    {r.file_link && (
                      <a className="button" href={r.file_link} download>
                        Download
                      </a>
                    )}
                    <button
                      type="button"
                      className="danger"
                      onClick={() => void remove(r.export_id)}
                      aria-label={`Remove export ${r.title ?? r.export_id}`}
                    >
                      Remove
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
