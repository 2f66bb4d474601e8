import { LANGUAGE_CODES } from '../../../../electron/shared/languages';
import { useId, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import {
  MAX_MATCH_CHARS,
  type LexiconEntry,
  type LexiconEntryInput,
} from '../../../../electron/shared/lexicon';
import type { LanguageCode } from '../../../../electron/shared/voices';
import { useLanguageName } from '../../lib/intl-text';
import type { Audition } from '../../lib/useAudition';
import { EntryRules, KindChoice, KindHelp, ReplacementField } from './LexiconEntryFields';
import { LexiconEntryActions } from './LexiconEntryActions';
import { useEntryDraft, useEntrySave } from './useEntryDraft';
import { usePreviewVoice } from './useEntryPreview';

/**
 * Adds or edits one lexicon entry: language, word or phrase, respelling, IPA, an abbreviation's
 * words or a unit's words after a number ("knot|knots"), case and whole-word rules (an
 * abbreviation is always whole words, a unit's symbol always as written), note; Test plays the
 * draft as it would be spoken (a unit after the number 2), Original as the engine reads it
 * without the entry. The server checks the entry (an unsupported IPA symbol is named).
 */
export function LexiconEntryForm({
  initial,
  editing,
  audition,
  onSaved,
  onCancel,
  compact = false,
}: {
  initial: Partial<LexiconEntryInput>;
  /** The entry being edited; a new entry when absent. */
  editing?: LexiconEntry;
  audition: Audition;
  onSaved(entry: LexiconEntry): void;
  onCancel(): void;
  /** Fewer fields (no note), for the compose box's popover. */
  compact?: boolean;
}) {
  const id = useId();
  const intl = useIntl();
  const languageName = useLanguageName();
  const d = useEntryDraft(initial);
  const {
    draft,
    complete,
    language,
    setLanguage,
    match,
    setMatch,
    kind,
    chooseKind,
    replacement,
    setReplacement,
  } = d;
  const { save, saving, error } = useEntrySave(editing, draft, onSaved);
  const replacementInput = useRef<HTMLInputElement>(null);
  const voiceCode = usePreviewVoice(language);
  const previewKey = `draft-${id}`;
  const auditionError = audition.error?.key.startsWith(previewKey) ? audition.error.message : null;

  const insert = (symbol: string) => {
    const input = replacementInput.current;
    const start = input?.selectionStart ?? replacement.length;
    const end = input?.selectionEnd ?? replacement.length;
    setReplacement(replacement.slice(0, start) + symbol + replacement.slice(end));
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + symbol.length, start + symbol.length);
    });
  };

  return (
    <form
      className="lexicon-form"
      aria-label={
        editing
          ? intl.formatMessage(
              { id: 'lexicon.form.editLabel', defaultMessage: 'Edit lexicon entry {match}' },
              { match: editing.match },
            )
          : intl.formatMessage({ id: 'lexicon.form.newLabel', defaultMessage: 'New lexicon entry' })
      }
      onSubmit={(e) => {
        e.preventDefault();
        // Enter in a field submits even while Save cannot act (it is aria-disabled, not disabled).
        if (complete && !saving) void save();
      }}
      onKeyDown={(e) => {
        // Escape closes the form (as Cancel), unless a field inside uses it itself.
        if (e.key === 'Escape' && !e.defaultPrevented) {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <div className="lexicon-form-grid">
        <div className="field">
          <label htmlFor={`${id}-language`}>
            <FormattedMessage id="lexicon.language" defaultMessage="Language" />
          </label>
          <select
            id={`${id}-language`}
            value={language}
            onChange={(e) => setLanguage(e.target.value as LanguageCode)}
          >
            {LANGUAGE_CODES.map((l) => (
              <option key={l} value={l}>
                {languageName(l)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-match`}>
            <FormattedMessage id="lexicon.match" defaultMessage="Word or phrase" />
          </label>
          <input
            id={`${id}-match`}
            type="text"
            maxLength={MAX_MATCH_CHARS}
            placeholder={intl.formatMessage({
              id: 'lexicon.form.match.placeholder',
              defaultMessage: 'e.g. Siobhan',
            })}
            value={match}
            onChange={(e) => setMatch(e.target.value)}
          />
        </div>
        <KindChoice id={id} kind={kind} onChoose={chooseKind} />
        <ReplacementField
          id={id}
          kind={kind}
          language={language}
          replacement={replacement}
          onChange={setReplacement}
          inputRef={replacementInput}
        />
      </div>
      <KindHelp id={id} kind={kind} onInsert={insert} />
      <EntryRules
        id={id}
        kind={kind}
        compact={compact}
        caseSensitive={d.caseSensitive}
        onCaseSensitive={d.setCaseSensitive}
        wholeWord={d.wholeWord}
        onWholeWord={d.setWholeWord}
        note={d.note}
        onNote={d.setNote}
      />
      {(error ?? auditionError) && (
        <p className="error" role="alert">
          {error ?? auditionError}
        </p>
      )}
      <LexiconEntryActions
        previewKey={previewKey}
        draft={draft}
        complete={complete}
        voiceCode={voiceCode}
        language={language}
        audition={audition}
        editing={editing !== undefined}
        saving={saving}
        onCancel={onCancel}
      />
    </form>
  );
}
