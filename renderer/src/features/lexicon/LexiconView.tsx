import { useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { LexiconEntry } from '../../../../electron/shared/lexicon';
import type { LanguageCode } from '../../../../electron/shared/voices';
import { errorMessage } from '../../lib/api-client';
import { useAudition } from '../../lib/useAudition';
import { useClient, useStudio } from '../../stores';
import { LexiconEntryForm } from './LexiconEntryForm';
import { usePreview } from './useEntryPreview';
import { useFocusAfterRemoval, useFocusReturn } from '../../lib/focus-return';
import { LexiconFiles } from './LexiconFiles';
import { LexiconFilters } from './LexiconFilters';
import { LexiconTable } from './LexiconTable';
import { RemoveEntryDialog } from './RemoveEntryDialog';
import { entriesMatching, useLexicon } from './useLexicon';

type Editing = { mode: 'add' } | { mode: 'edit'; entry: LexiconEntry } | null;

/** The pronunciation lexicon: search, add, edit, test-play, remove, import and export. */
export function LexiconView() {
  const client = useClient();
  const studioVoice = useStudio((s) => s.options.voice_code);
  const voices = useStudio((s) => s.voices);
  const intl = useIntl();
  const { lexicon, load, error, setError, notice, setNotice, exportFile, importFile } = useLexicon();
  const [query, setQuery] = useState('');
  const [language, setLanguage] = useState<LanguageCode | ''>('');
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<LexiconEntry | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const formPanel = useRef<HTMLDivElement>(null);
  useFocusReturn(editing !== null, formPanel, addButton);
  // A removed entry's row goes with its focused Remove button: the view's heading takes the focus.
  const focusHeadingAfterRemoval = useFocusAfterRemoval(lexicon, heading);
  const audition = useAudition();
  const preview = usePreview(audition);

  const items = lexicon?.items ?? [];
  const shown = entriesMatching(items, query, language);

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
        <LexiconFilters
          query={query}
          onQuery={setQuery}
          language={language}
          onLanguage={setLanguage}
          shown={shown.length}
          total={items.length}
          version={lexicon?.version}
        >
          <LexiconFiles
            language={language}
            onImport={importFile}
            onExport={(format) => void exportFile(format, language)}
          />
        </LexiconFilters>
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
          <LexiconTable
            entries={shown}
            playingOf={(entry) => (audition.active === entry.id ? audition.phase : null)}
            onPlay={(entry) => preview(entry.id, entry.id, voiceFor(entry))}
            onEdit={(entry) => setEditing({ mode: 'edit', entry })}
            onRemove={setRemoving}
          />
        )}
        {lexicon && items.length > 0 && shown.length === 0 && (
          <p className="muted">
            <FormattedMessage id="lexicon.noMatch" defaultMessage="No entry matches." />
          </p>
        )}
      </div>
      <RemoveEntryDialog
        entry={removing}
        onConfirm={(entry) => void remove(entry)}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}
