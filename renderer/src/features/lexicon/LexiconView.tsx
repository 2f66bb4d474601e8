import { LANGUAGE_CODES } from '../../../../electron/shared/languages';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { type Lexicon, type LexiconEntry, type LexiconFormat } from '../../../../electron/shared/lexicon';
import { LEXICON_FILE_TYPES } from '../../../../electron/shared/lexicon-files';
import type { LanguageCode } from '../../../../electron/shared/voices';
import { errorMessage } from '../../lib/api-client';
import { useAudition } from '../../lib/useAudition';
import { useClient, useStudio } from '../../stores';
import { useLanguageName } from '../../lib/intl-text';
import { LexiconEntryForm, usePreview } from './LexiconEntryForm';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useFocusAfterRemoval, useFocusReturn } from '../../lib/focus-return';

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
  const intl = useIntl();
  const languageName = useLanguageName();
  const rules = [
    entry.case_sensitive
      ? intl.formatMessage({ id: 'lexicon.rule.matchCase', defaultMessage: 'match case' })
      : '',
    entry.whole_word
      ? ''
      : intl.formatMessage({ id: 'lexicon.rule.insideWords', defaultMessage: 'inside words' }),
  ].filter(Boolean);
  return (
    <tr>
      <td>{languageName(entry.language)}</td>
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
          {entry.kind === 'ipa'
            ? 'IPA'
            : entry.kind === 'abbreviation'
              ? intl.formatMessage({ id: 'lexicon.kind.abbreviation', defaultMessage: 'abbreviation' })
              : entry.kind === 'unit'
                ? intl.formatMessage({ id: 'lexicon.kind.unit', defaultMessage: 'unit after a number' })
                : intl.formatMessage({ id: 'lexicon.kind.respelling', defaultMessage: 'respelling' })}
        </span>
      </td>
      <td className="small muted">
        {intl.formatList(rules) ||
          intl.formatMessage({ id: 'lexicon.rule.wholeWords', defaultMessage: 'whole words' })}
      </td>
      <td className="small">{entry.note ?? ''}</td>
      <td className="actions">
        <button
          type="button"
          className="icon"
          aria-label={intl.formatMessage(
            {
              id: 'lexicon.row.playLabel',
              defaultMessage: '{playing, select, true {Stop} other {Play}} {match}',
            },
            { playing: String(Boolean(playing)), match: entry.match },
          )}
          aria-busy={playing === 'loading'}
          onClick={onPlay}
        >
          {playing === 'loading' ? (
            '…'
          ) : playing === 'playing' ? (
            <FormattedMessage id="common.stop" defaultMessage="Stop" />
          ) : (
            <FormattedMessage id="common.play" defaultMessage="Play" />
          )}
        </button>
        <button
          type="button"
          onClick={onEdit}
          aria-label={intl.formatMessage(
            { id: 'lexicon.row.editLabel', defaultMessage: 'Edit {match}' },
            { match: entry.match },
          )}
        >
          <FormattedMessage id="common.edit" defaultMessage="Edit" />
        </button>
        <button
          type="button"
          className="danger"
          onClick={onRemove}
          aria-label={intl.formatMessage(
            { id: 'lexicon.row.removeLabel', defaultMessage: 'Remove {match}' },
            { match: entry.match },
          )}
        >
          <FormattedMessage id="common.remove" defaultMessage="Remove" />
        </button>
      </td>
    </tr>
  );
}

/** The pronunciation lexicon: search, add, edit, test-play, remove, import and export. */
export function LexiconView() {
  const client = useClient();
  const studioVoice = useStudio((s) => s.options.voice_code);
  const voices = useStudio((s) => s.voices);
  const id = useId();
  const intl = useIntl();
  const languageName = useLanguageName();
  const [lexicon, setLexicon] = useState<Lexicon | null>(null);
  const [query, setQuery] = useState('');
  const [language, setLanguage] = useState<LanguageCode | ''>('');
  const [editing, setEditing] = useState<Editing>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [removing, setRemoving] = useState<LexiconEntry | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const formPanel = useRef<HTMLDivElement>(null);
  useFocusReturn(editing !== null, formPanel, addButton);
  // A removed entry's row goes with its focused Remove button: the view's heading takes the focus.
  const focusHeadingAfterRemoval = useFocusAfterRemoval(lexicon, heading);
  const audition = useAudition();
  const preview = usePreview(audition);

  const load = useCallback(async () => {
    try {
      setLexicon(await client.lexicon());
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [client]);

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
    setRemoving(null);
    setError(null);
    focusHeadingAfterRemoval();
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
      setNotice(
        intl.formatMessage(
          {
            id: 'lexicon.imported',
            defaultMessage:
              'Imported {file}: {added, number} added, {updated, number} updated, {unchanged, number} unchanged.',
          },
          { file: file.name, added: r.added, updated: r.updated, unchanged: r.unchanged },
        ),
      );
      await load();
    } catch (e) {
      setError(`${file.name}: ${errorMessage(e)}`);
    } finally {
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const saved = async (entry: LexiconEntry, how: 'saved' | 'added') => {
    setEditing(null);
    setNotice(
      intl.formatMessage(
        {
          id: 'lexicon.savedNotice',
          defaultMessage: '{how, select, added {Added} other {Saved}} “{match}”.',
        },
        { how, match: entry.match },
      ),
    );
    await load();
  };

  return (
    <>
      <div className="page-head">
        <div>
          <h1 ref={heading} tabIndex={-1}>
            <FormattedMessage id="lexicon.title" defaultMessage="Lexicon" />
          </h1>
          <p>
            <FormattedMessage
              id="lexicon.intro"
              defaultMessage="How names and words are pronounced, in every voice: the studio, the API and the command line. Subtitles keep the words as written."
            />
          </p>
        </div>
        <button ref={addButton} type="button" className="primary" onClick={() => setEditing({ mode: 'add' })}>
          <FormattedMessage id="lexicon.addEntry" defaultMessage="Add entry" />
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
        <div className="panel" ref={formPanel}>
          <h2 style={{ marginBottom: 10 }}>
            {editing.mode === 'edit' ? (
              <FormattedMessage
                id="lexicon.editHeading"
                defaultMessage="Edit “{match}”"
                values={{ match: editing.entry.match }}
              />
            ) : (
              <FormattedMessage id="lexicon.newHeading" defaultMessage="New entry" />
            )}
          </h2>
          <LexiconEntryForm
            key={editing.mode === 'edit' ? editing.entry.id : 'new'}
            initial={editing.mode === 'edit' ? editing.entry : { language: language || 'en' }}
            {...(editing.mode === 'edit' ? { editing: editing.entry } : {})}
            audition={audition}
            onSaved={(entry) => void saved(entry, editing.mode === 'edit' ? 'saved' : 'added')}
            onCancel={() => setEditing(null)}
          />
        </div>
      )}
      <div className="panel">
        <div className="voice-filters" role="search">
          <div className="field">
            <label htmlFor={`${id}-q`}>
              <FormattedMessage id="lexicon.search" defaultMessage="Search" />
            </label>
            <input
              id={`${id}-q`}
              type="search"
              placeholder={intl.formatMessage({
                id: 'lexicon.search.placeholder',
                defaultMessage: 'Word or note…',
              })}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-lang`}>
              <FormattedMessage id="lexicon.language" defaultMessage="Language" />
            </label>
            <select
              id={`${id}-lang`}
              value={language}
              onChange={(e) => setLanguage(e.target.value as LanguageCode | '')}
            >
              <option value="">
                {intl.formatMessage({ id: 'lexicon.allLanguages', defaultMessage: 'All languages' })}
              </option>
              {LANGUAGE_CODES.map((l) => (
                <option key={l} value={l}>
                  {languageName(l)}
                </option>
              ))}
            </select>
          </div>
          <span className="muted small" aria-live="polite">
            <FormattedMessage
              id="lexicon.count"
              defaultMessage="{shown, number} of {total, plural, one {# entry} other {# entries}}"
              values={{ shown: shown.length, total: items.length }}
            />
            {lexicon && (
              <>
                {' · '}
                <FormattedMessage
                  id="lexicon.version"
                  defaultMessage="version {version}"
                  values={{ version: lexicon.version }}
                />
              </>
            )}
          </span>
          <span className="spacer" />
          <div className="row lexicon-files">
            <input
              ref={fileInput}
              type="file"
              accept=".json,.csv,.pls,.xml,application/json,text/csv,application/pls+xml"
              className="visually-hidden"
              aria-label={intl.formatMessage({
                id: 'lexicon.importFile',
                defaultMessage: 'Import a lexicon file',
              })}
              tabIndex={-1}
              onChange={(e) => void importFile(e.target.files?.[0])}
            />
            <button type="button" onClick={() => fileInput.current?.click()}>
              <FormattedMessage id="lexicon.import" defaultMessage="Import…" />
            </button>
            <span className="muted small">
              <FormattedMessage id="lexicon.export" defaultMessage="Export" />
            </span>
            {(['json', 'csv', 'pls'] as const).map((format) =>
              format === 'pls' && !language ? (
                <button
                  key={format}
                  type="button"
                  disabled
                  title={intl.formatMessage({
                    id: 'lexicon.plsOneLanguage',
                    defaultMessage: 'A PLS file holds one language: choose one first',
                  })}
                >
                  PLS
                </button>
              ) : (
                <button
                  key={format}
                  type="button"
                  onClick={() => void exportFile(format)}
                  aria-label={intl.formatMessage(
                    {
                      id: 'lexicon.exportLabel',
                      defaultMessage: 'Export {format}{hasLanguage, select, true { ({language})} other {}}',
                    },
                    {
                      format: format.toUpperCase(),
                      hasLanguage: String(language !== ''),
                      language: language ? languageName(language) : '',
                    },
                  )}
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
            <FormattedMessage
              id="lexicon.empty"
              defaultMessage="No entries yet. Add one here, or select a word in the Studio’s text and choose “Add to lexicon”."
            />
          </p>
        ) : (
          <table
            className="data lexicon-table"
            aria-label={intl.formatMessage({ id: 'lexicon.table', defaultMessage: 'Lexicon entries' })}
          >
            <thead>
              <tr>
                <th>
                  <FormattedMessage id="lexicon.language" defaultMessage="Language" />
                </th>
                <th>
                  <FormattedMessage id="lexicon.match" defaultMessage="Word or phrase" />
                </th>
                <th>
                  <FormattedMessage id="lexicon.sayAs" defaultMessage="Say as" />
                </th>
                <th>
                  <FormattedMessage id="lexicon.matching" defaultMessage="Matching" />
                </th>
                <th>
                  <FormattedMessage id="lexicon.note" defaultMessage="Note" />
                </th>
                <th>
                  <span className="visually-hidden">
                    <FormattedMessage id="common.actions" defaultMessage="Actions" />
                  </span>
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
                  onRemove={() => setRemoving(entry)}
                />
              ))}
            </tbody>
          </table>
        )}
        {lexicon && items.length > 0 && shown.length === 0 && (
          <p className="muted">
            <FormattedMessage id="lexicon.noMatch" defaultMessage="No entry matches." />
          </p>
        )}
      </div>
      <ConfirmDialog
        request={
          removing && {
            title: intl.formatMessage(
              { id: 'lexicon.confirmRemove', defaultMessage: 'Remove the pronunciation of “{match}”?' },
              { match: removing.match },
            ),
            message: intl.formatMessage(
              {
                id: 'lexicon.confirmRemove.message',
                defaultMessage: 'Every voice will read “{match}” by its own rules again.',
              },
              { match: removing.match },
            ),
            confirmLabel: intl.formatMessage({ id: 'common.remove', defaultMessage: 'Remove' }),
          }
        }
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}
