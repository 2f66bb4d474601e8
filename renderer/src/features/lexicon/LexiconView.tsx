import { useCallback, useEffect, useId, useRef, useState } from 'react';
import {
  LEXICON_LANGUAGES,
  type Lexicon,
  type LexiconEntry,
  type LexiconFormat,
} from '../../../../electron/shared/lexicon';
import { LEXICON_FILE_TYPES } from '../../../../electron/shared/lexicon-files';
import type { LanguageCode } from '../../../../electron/shared/voices';
import { errorMessage, isSignedOut } from '../../lib/api-client';
import { useAudition } from '../../lib/useAudition';
import { useClient, useStudio } from '../../stores';
import { LANGUAGE_NAMES, LexiconEntryForm, usePreview } from './LexiconEntryForm';

type Editing = { mode: 'add' } | { mode: 'edit'; entry: LexiconEntry } | null;

/** The format of a lexicon file by its name (.csv, .pls/.xml, else JSON). */
function formatOf(name: string): LexiconFormat {
  if (/\.csv$/i.test(name)) return 'csv';
  if (/\.(pls|xml)$/i.test(name)) return 'pls';
  return 'json';
}

/** One entry's row: play the entry, edit, remove. */
function EntryRow({
  entry,
  playing,
  onPlay,
  onEdit,
  onRemove,
}: {
  entry: LexiconEntry;
  playing: 'loading' | 'playing' | null;
  onPlay(): void;
  onEdit(): void;
  onRemove(): void;
}) {
  const rules = [entry.case_sensitive ? 'match case' : '', entry.whole_word ? '' : 'inside words'].filter(
    Boolean,
  );
  return (
    <tr>
      <td>{LANGUAGE_NAMES[entry.language]}</td>
      <td>
        <b>{entry.match}</b>
      </td>
      <td>
        {entry.kind === 'ipa' ? (
          <span className="mono" lang="und-fonipa">
            /{entry.replacement}/
          </span>
        ) : (
          entry.replacement
        )}
        <span className="badge" style={{ marginLeft: 6 }}>
          {entry.kind === 'ipa' ? 'IPA' : 'respelling'}
        </span>
      </td>
      <td className="small muted">{rules.join(', ') || 'whole words'}</td>
      <td className="small">{entry.note ?? ''}</td>
      <td className="actions">
        <button
          type="button"
          className="icon"
          aria-label={`${playing ? 'Stop' : 'Play'} ${entry.match}`}
          aria-busy={playing === 'loading'}
          onClick={onPlay}
        >
          {playing === 'loading' ? '…' : playing === 'playing' ? 'Stop' : 'Play'}
        </button>
        <button type="button" onClick={onEdit} aria-label={`Edit ${entry.match}`}>
          Edit
        </button>
        <button type="button" className="danger" onClick={onRemove} aria-label={`Remove ${entry.match}`}>
          Remove
        </button>
      </td>
    </tr>
  );
}

/** The pronunciation lexicon: search, add, edit, test-play, remove, import and export. */
export function LexiconView() {
  const client = useClient();
  const markSignedOut = useStudio((s) => s.markSignedOut);
  const studioVoice = useStudio((s) => s.options.voice_code);
  const voices = useStudio((s) => s.voices);
  const id = useId();
  const [lexicon, setLexicon] = useState<Lexicon | null>(null);
  const [query, setQuery] = useState('');
  const [language, setLanguage] = useState<LanguageCode | ''>('');
  const [editing, setEditing] = useState<Editing>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const audition = useAudition();
  const preview = usePreview(audition);

  const load = useCallback(async () => {
    try {
      setLexicon(await client.lexicon());
    } catch (e) {
      if (isSignedOut(e)) markSignedOut();
      setError(errorMessage(e));
    }
  }, [client, markSignedOut]);

  useEffect(() => {
    const first = setTimeout(() => void load(), 0);
    return () => clearTimeout(first);
  }, [load]);

  /**
   * Saves the lexicon as a file. Fetched by the client (with the session's header) and handed
   * to the browser as a blob, so no address carrying the session lands in the downloads list.
   */
  const exportFile = async (format: LexiconFormat) => {
    try {
      const blob = await client.lexiconExport({ format, ...(language ? { language } : {}) });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `lexicon${language ? `-${language}` : ''}.${LEXICON_FILE_TYPES[format].extension}`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    } catch (e) {
      if (isSignedOut(e)) markSignedOut();
      setError(errorMessage(e));
    }
  };

  const items = lexicon?.items ?? [];
  const q = query.trim().toLowerCase();
  const shown = items.filter(
    (e) =>
      (language === '' || e.language === language) &&
      (q === '' || `${e.match}\n${e.replacement}\n${e.note ?? ''}`.toLowerCase().includes(q)),
  );

  const voiceFor = (entry: LexiconEntry) =>
    voices.find((v) => v.voice_code === studioVoice)?.language === entry.language ? studioVoice : undefined;

  const remove = async (entry: LexiconEntry) => {
    if (!window.confirm(`Remove the pronunciation of “${entry.match}”?`)) return;
    setError(null);
    try {
      await client.removeLexiconEntry(entry.id);
      if (editing?.mode === 'edit' && editing.entry.id === entry.id) setEditing(null);
      await load();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const importFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setNotice(null);
    try {
      const r = await client.importLexicon({ format: formatOf(file.name), text: await file.text() });
      setNotice(`Imported ${file.name}: ${r.added} added, ${r.updated} updated, ${r.unchanged} unchanged.`);
      await load();
    } catch (e) {
      setError(`${file.name}: ${errorMessage(e)}`);
    } finally {
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const saved = async (entry: LexiconEntry, verb: string) => {
    setEditing(null);
    setNotice(`${verb} “${entry.match}”.`);
    await load();
  };

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Lexicon</h1>
          <p>
            How names and words are pronounced, in every voice: the studio, the API and the command line.
            Subtitles keep the words as written.
          </p>
        </div>
        <button type="button" className="primary" onClick={() => setEditing({ mode: 'add' })}>
          Add entry
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="hint" role="status" style={{ margin: '0 0 12px' }}>
          {notice}
        </p>
      )}
      {editing && (
        <div className="panel">
          <h2 style={{ marginBottom: 10 }}>
            {editing.mode === 'edit' ? `Edit “${editing.entry.match}”` : 'New entry'}
          </h2>
          <LexiconEntryForm
            key={editing.mode === 'edit' ? editing.entry.id : 'new'}
            initial={editing.mode === 'edit' ? editing.entry : { language: language || 'en' }}
            {...(editing.mode === 'edit' ? { editing: editing.entry } : {})}
            audition={audition}
            onSaved={(entry) => void saved(entry, editing.mode === 'edit' ? 'Saved' : 'Added')}
            onCancel={() => setEditing(null)}
          />
        </div>
      )}
      <div className="panel">
        <div className="voice-filters" role="search">
          <div className="field">
            <label htmlFor={`${id}-q`}>Search</label>
            <input
              id={`${id}-q`}
              type="search"
              placeholder="Word or note…"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-lang`}>Language</label>
            <select
              id={`${id}-lang`}
              value={language}
              onChange={(e) => setLanguage(e.target.value as LanguageCode | '')}
            >
              <option value="">All languages</option>
              {LEXICON_LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </select>
          </div>
          <span className="muted small" aria-live="polite">
            {shown.length} of {items.length} entries{lexicon ? ` · version ${lexicon.version}` : ''}
          </span>
          <span className="spacer" />
          <div className="row lexicon-files">
            <input
              ref={fileInput}
              type="file"
              accept=".json,.csv,.pls,.xml,application/json,text/csv,application/pls+xml"
              className="visually-hidden"
              aria-label="Import a lexicon file"
              tabIndex={-1}
              onChange={(e) => void importFile(e.target.files?.[0])}
            />
            <button type="button" onClick={() => fileInput.current?.click()}>
              Import…
            </button>
            <span className="muted small">Export</span>
            {(['json', 'csv', 'pls'] as const).map((format) =>
              format === 'pls' && !language ? (
                <button
                  key={format}
                  type="button"
                  disabled
                  title="A PLS file holds one language: choose one first"
                >
                  PLS
                </button>
              ) : (
                <button
                  key={format}
                  type="button"
                  onClick={() => void exportFile(format)}
                  aria-label={`Export ${format.toUpperCase()}${language ? ` (${LANGUAGE_NAMES[language]})` : ''}`}
                >
                  {format.toUpperCase()}
                </button>
              ),
            )}
          </div>
        </div>
        {audition.error && !audition.error.key.startsWith('draft-') && (
          <p className="error" role="alert">
            {audition.error.message}
          </p>
        )}
        {lexicon && items.length === 0 ? (
          <p className="muted">
            No entries yet. Add one here, or select a word in the Studio’s text and choose “Add to lexicon”.
          </p>
        ) : (
          <table className="data lexicon-table" aria-label="Lexicon entries">
            <thead>
              <tr>
                <th>Language</th>
                <th>Word or phrase</th>
                <th>Say as</th>
                <th>Matching</th>
                <th>Note</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((entry) => (
                <EntryRow
                  key={entry.id}
                  entry={entry}
                  playing={audition.active === entry.id ? audition.phase : null}
                  onPlay={() => preview(entry.id, entry.id, voiceFor(entry))}
                  onEdit={() => setEditing({ mode: 'edit', entry })}
                  onRemove={() => void remove(entry)}
                />
              ))}
            </tbody>
          </table>
        )}
        {lexicon && items.length > 0 && shown.length === 0 && <p className="muted">No entry matches.</p>}
      </div>
    </>
  );
}
