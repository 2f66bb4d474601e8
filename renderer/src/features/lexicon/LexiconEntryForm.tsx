import { LANGUAGE_CODES } from '../../../../electron/shared/languages';
import { useId, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import {
  MAX_MATCH_CHARS,
  MAX_NOTE_CHARS,
  MAX_REPLACEMENT_CHARS,
  type LexiconEntry,
  type LexiconEntryInput,
  type LexiconKind,
} from '../../../../electron/shared/lexicon';
import { findVoice, type LanguageCode } from '../../../../electron/shared/voices';
import { errorMessage } from '../../lib/api-client';
import { useLanguageName } from '../../lib/intl-text';
import type { Audition } from '../../lib/useAudition';
import { useClient, useStudio } from '../../stores';
import { BusyButton } from '../../components/BusyButton';

/** The kinds of entry, in the order the form offers them, with their names. */
const KIND_CHOICES: readonly [LexiconKind, ReactNode][] = [
  ['respell', <FormattedMessage key="respell" id="lexicon.respelling" defaultMessage="Respelling" />],
  ['ipa', 'IPA'],
  [
    'abbreviation',
    <FormattedMessage key="abbreviation" id="lexicon.abbreviation" defaultMessage="Abbreviation" />,
  ],
  ['unit', <FormattedMessage key="unit" id="lexicon.unit" defaultMessage="Unit" />],
];

/** Symbols a keyboard lacks, for writing IPA: stress, length, and the commonest vowels and consonants. */
const IPA_KEYS = [
  'ˈ',
  'ˌ',
  'ː',
  'ə',
  'ɪ',
  'ʊ',
  'ɛ',
  'æ',
  'ɑ',
  'ɔ',
  'ʌ',
  'ɜ',
  'ʃ',
  'ʒ',
  'θ',
  'ð',
  'ŋ',
  'ɹ',
  'tʃ',
  'dʒ',
];

/**
 * The voice that tests an entry: the studio's voice when it speaks the entry's language, else
 * none (the server takes the language's first voice).
 */
export function usePreviewVoice(language: LanguageCode): string | undefined {
  const voiceCode = useStudio((s) => s.options.voice_code);
  return findVoice(voiceCode)?.language === language ? voiceCode : undefined;
}

/** Plays an entry's preview (saved by id, or a draft) through `audition`, under `key`. */
export function usePreview(audition: Audition) {
  const client = useClient();
  return (
    key: string,
    entry: string | LexiconEntryInput,
    voiceCode: string | undefined,
    variant: 'with' | 'without' = 'with',
  ) => {
    const body = {
      ...(voiceCode ? { voice_code: voiceCode } : {}),
      ...(variant === 'without' ? { variant } : {}),
    };
    audition.toggleSource(key, client.lexiconPreviewUrl(entry, body), () =>
      client.lexiconPreview(entry, body),
    );
  };
}

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
  const client = useClient();
  const id = useId();
  const intl = useIntl();
  const languageName = useLanguageName();
  const [language, setLanguage] = useState<LanguageCode>(initial.language ?? 'en');
  const [match, setMatch] = useState(initial.match ?? '');
  const [kind, setKind] = useState<LexiconKind>(initial.kind ?? 'respell');
  const [replacement, setReplacement] = useState(initial.replacement ?? '');
  const [caseSensitive, setCaseSensitive] = useState(
    initial.case_sensitive ?? initial.kind === 'abbreviation',
  );
  const [wholeWord, setWholeWord] = useState(initial.whole_word ?? true);
  const [note, setNote] = useState(initial.note ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const replacementInput = useRef<HTMLInputElement>(null);
  const voiceCode = usePreviewVoice(language);
  const preview = usePreview(audition);

  /** A new abbreviation matches the case written unless the user unticks it; a unit always does. */
  const chooseKind = (next: LexiconKind) => {
    if (next === 'abbreviation' && kind !== 'abbreviation') setCaseSensitive(true);
    setKind(next);
  };
  const draft: LexiconEntryInput = {
    language,
    match,
    kind,
    replacement,
    case_sensitive: kind === 'unit' ? true : caseSensitive,
    whole_word: kind === 'abbreviation' || kind === 'unit' ? true : wholeWord,
    ...(note.trim() ? { note } : {}),
  };
  const complete = match.trim() !== '' && replacement.trim() !== '';
  const previewKey = `draft-${id}`;
  const auditionError = audition.error?.key.startsWith(previewKey) ? audition.error.message : null;

  const save = async () => {
    setError(null);
    setSaving(true);
    try {
      const { entry } = editing
        ? await client.updateLexiconEntry(editing.id, draft)
        : await client.addLexiconEntry(draft);
      onSaved(entry);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

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
        <div className="field">
          <span className="field-label" id={`${id}-kind`}>
            <FormattedMessage id="lexicon.form.sayAs" defaultMessage="Say it as" />
          </span>
          <div className="segmented" role="radiogroup" aria-labelledby={`${id}-kind`}>
            {KIND_CHOICES.map(([choice, label]) => (
              <label key={choice}>
                <input
                  type="radio"
                  name={`${id}-kind`}
                  checked={kind === choice}
                  onChange={() => chooseKind(choice)}
                />
                {label}
              </label>
            ))}
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${id}-replacement`}>
            {kind === 'ipa' ? (
              'IPA'
            ) : kind === 'abbreviation' ? (
              <FormattedMessage id="lexicon.form.abbreviationWords" defaultMessage="Its words" />
            ) : kind === 'unit' ? (
              <FormattedMessage id="lexicon.form.unitWords" defaultMessage="Words after a number" />
            ) : (
              <FormattedMessage id="lexicon.respelling" defaultMessage="Respelling" />
            )}
          </label>
          <input
            id={`${id}-replacement`}
            ref={replacementInput}
            type="text"
            maxLength={MAX_REPLACEMENT_CHARS}
            placeholder={
              kind === 'ipa'
                ? intl.formatMessage({ id: 'lexicon.form.ipa.placeholder', defaultMessage: 'e.g. ʃɪˈvɔːn' })
                : kind === 'abbreviation'
                  ? intl.formatMessage({
                      id: 'lexicon.form.abbreviation.placeholder',
                      defaultMessage: 'e.g. company',
                    })
                  : kind === 'unit'
                    ? intl.formatMessage({
                        id: 'lexicon.form.unit.placeholder',
                        defaultMessage: 'e.g. knot|knots',
                      })
                    : intl.formatMessage({
                        id: 'lexicon.form.respell.placeholder',
                        defaultMessage: 'e.g. shiv awn',
                      })
            }
            value={replacement}
            lang={kind === 'ipa' ? 'und-fonipa' : language}
            spellCheck={false}
            onChange={(e) => setReplacement(e.target.value)}
          />
        </div>
      </div>
      {kind === 'abbreviation' && (
        <p className="hint" id={`${id}-kind-help`}>
          <FormattedMessage
            id="lexicon.form.abbreviation.help"
            defaultMessage="Read as these words wherever it stands as a whole word, with or without its full stop (“Cty” and “Cty.”), before the built-in rules."
          />
        </p>
      )}
      {kind === 'unit' && (
        <p className="hint" id={`${id}-kind-help`}>
          <FormattedMessage
            id="lexicon.form.unit.help"
            defaultMessage="Read after a number: “5 kn” is “five knots”. Write the word for one, a “|”, then the word for many; one word when the language has one form (“hải lý”). The symbol is matched as written."
          />
        </p>
      )}
      {kind === 'ipa' && (
        <div
          className="ipa-keys"
          role="group"
          aria-label={intl.formatMessage({ id: 'lexicon.form.ipaSymbols', defaultMessage: 'IPA symbols' })}
        >
          {IPA_KEYS.map((symbol) => (
            <button
              key={symbol}
              type="button"
              className="ipa-key"
              aria-label={intl.formatMessage(
                { id: 'lexicon.form.insert', defaultMessage: 'Insert {symbol}' },
                { symbol },
              )}
              onClick={() => insert(symbol)}
            >
              {symbol}
            </button>
          ))}
        </div>
      )}
      <div className="row lexicon-rules">
        {kind !== 'unit' && (
          <label className="check">
            <input
              type="checkbox"
              checked={caseSensitive}
              onChange={(e) => setCaseSensitive(e.target.checked)}
            />
            <FormattedMessage id="lexicon.form.matchCase" defaultMessage="Match case" />
          </label>
        )}
        {kind !== 'unit' && kind !== 'abbreviation' && (
          <label className="check">
            <input type="checkbox" checked={wholeWord} onChange={(e) => setWholeWord(e.target.checked)} />
            <FormattedMessage id="lexicon.form.wholeWords" defaultMessage="Whole words only" />
          </label>
        )}
        {!compact && (
          <div className="field lexicon-note">
            <label htmlFor={`${id}-note`} className="visually-hidden">
              <FormattedMessage id="lexicon.note" defaultMessage="Note" />
            </label>
            <input
              id={`${id}-note`}
              type="text"
              maxLength={MAX_NOTE_CHARS}
              placeholder={intl.formatMessage({
                id: 'lexicon.form.note.placeholder',
                defaultMessage: 'Note (optional)',
              })}
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
          </div>
        )}
      </div>
      {(error ?? auditionError) && (
        <p className="error" role="alert">
          {error ?? auditionError}
        </p>
      )}
      <div className="row lexicon-actions">
        <button
          type="button"
          disabled={!complete}
          aria-busy={audition.active === `${previewKey}-with` && audition.phase === 'loading'}
          onClick={() => preview(`${previewKey}-with`, draft, voiceCode)}
        >
          {audition.active === `${previewKey}-with` ? (
            <FormattedMessage id="common.stop" defaultMessage="Stop" />
          ) : (
            <FormattedMessage id="lexicon.form.test" defaultMessage="Test" />
          )}
        </button>
        <button
          type="button"
          disabled={match.trim() === '' || !complete}
          onClick={() => preview(`${previewKey}-without`, draft, voiceCode, 'without')}
        >
          {audition.active === `${previewKey}-without` ? (
            <FormattedMessage id="common.stop" defaultMessage="Stop" />
          ) : (
            <FormattedMessage id="lexicon.form.original" defaultMessage="Original" />
          )}
        </button>
        <span className="hint">
          {voiceCode
            ? intl.formatMessage(
                { id: 'lexicon.form.testedWith', defaultMessage: 'Tested with {voice}' },
                { voice: findVoice(voiceCode)?.name ?? voiceCode },
              )
            : intl.formatMessage(
                {
                  id: 'lexicon.form.testedWithLanguage',
                  defaultMessage: 'Tested with a voice in {language}',
                },
                { language: languageName(language) },
              )}
        </span>
        <span className="spacer" />
        <button type="button" onClick={onCancel}>
          <FormattedMessage id="common.cancel" defaultMessage="Cancel" />
        </button>
        <BusyButton type="submit" className="primary" busy={saving} unavailable={!complete}>
          {editing ? (
            <FormattedMessage id="common.save" defaultMessage="Save" />
          ) : (
            <FormattedMessage id="lexicon.form.add" defaultMessage="Add to lexicon" />
          )}
        </BusyButton>
      </div>
    </form>
  );
}
