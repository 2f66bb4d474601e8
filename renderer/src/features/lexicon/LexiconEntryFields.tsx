import type { ReactNode, RefObject } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { MAX_NOTE_CHARS, MAX_REPLACEMENT_CHARS, type LexiconKind } from '../../../../electron/shared/lexicon';
import type { LanguageCode } from '../../../../electron/shared/voices';

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

/** The entry's replacement: a respelling, IPA, an abbreviation's words or a unit's words after a number. */
export function ReplacementField({
  id,
  kind,
  language,
  replacement,
  onChange,
  inputRef,
}: {
  id: string;
  kind: LexiconKind;
  language: LanguageCode;
  replacement: string;
  onChange(replacement: string): void;
  inputRef: RefObject<HTMLInputElement | null>;
}) {
  const intl = useIntl();
  return (
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
        ref={inputRef}
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
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** What an abbreviation or a unit means, and the IPA symbols' keys (`onInsert` types one). */
export function KindHelp({
  id,
  kind,
  onInsert,
}: {
  id: string;
  kind: LexiconKind;
  onInsert(symbol: string): void;
}) {
  const intl = useIntl();
  return (
    <>
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
              onClick={() => onInsert(symbol)}
            >
              {symbol}
            </button>
          ))}
        </div>
      )}
    </>
  );
}

/** The entry's matching rules (case, whole words; as its kind allows) and its note (not when `compact`). */
export function EntryRules({
  id,
  kind,
  compact,
  caseSensitive,
  onCaseSensitive,
  wholeWord,
  onWholeWord,
  note,
  onNote,
}: {
  id: string;
  kind: LexiconKind;
  compact: boolean;
  caseSensitive: boolean;
  onCaseSensitive(value: boolean): void;
  wholeWord: boolean;
  onWholeWord(value: boolean): void;
  note: string;
  onNote(note: string): void;
}) {
  const intl = useIntl();
  return (
    <div className="row lexicon-rules">
      {kind !== 'unit' && (
        <label className="check">
          <input
            type="checkbox"
            checked={caseSensitive}
            onChange={(e) => onCaseSensitive(e.target.checked)}
          />
          <FormattedMessage id="lexicon.form.matchCase" defaultMessage="Match case" />
        </label>
      )}
      {kind !== 'unit' && kind !== 'abbreviation' && (
        <label className="check">
          <input type="checkbox" checked={wholeWord} onChange={(e) => onWholeWord(e.target.checked)} />
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
            onChange={(e) => onNote(e.target.value)}
          />
        </div>
      )}
    </div>
  );
}

/** The kind of entry: a respelling, IPA, an abbreviation or a unit. */
export function KindChoice({
  id,
  kind,
  onChoose,
}: {
  id: string;
  kind: LexiconKind;
  onChoose(kind: LexiconKind): void;
}) {
  return (
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
              onChange={() => onChoose(choice)}
            />
            {label}
          </label>
        ))}
      </div>
    </div>
  );
}
