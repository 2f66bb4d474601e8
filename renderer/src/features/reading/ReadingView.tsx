import { LANGUAGE_CODES } from '../../../../electron/shared/languages';
import { memo, useId, useMemo, useState, type ReactNode } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import {
  READING_MAX_CHARS,
  type Reading,
  type ReadingChange,
  type ReadingRule,
} from '../../../../electron/shared/api';
import { VoiceOptions } from '../../components/VoiceSelect';
import { countCharacters } from '../../lib/estimate';
import { useLanguageName } from '../../lib/intl-text';
import { matchesShortcut } from '../../lib/shortcuts';
import { useStudio } from '../../stores';
import {
  LANGUAGE_TARGET,
  readingBase,
  readingIsStale,
  readingPieces,
  targetOf,
  targetValue,
} from '../../stores/reading-slice';

/** Each rule class's name, as the list of changes and the marks' notes show it. */
export const RULE_NAMES = defineMessages<ReadingRule>({
  cardinal: { id: 'reading.rule.cardinal', defaultMessage: 'Number' },
  decimal: { id: 'reading.rule.decimal', defaultMessage: 'Decimal' },
  ordinal: { id: 'reading.rule.ordinal', defaultMessage: 'Ordinal' },
  date: { id: 'reading.rule.date', defaultMessage: 'Date' },
  time: { id: 'reading.rule.time', defaultMessage: 'Time of day' },
  duration: { id: 'reading.rule.duration', defaultMessage: 'Duration' },
  money: { id: 'reading.rule.money', defaultMessage: 'Money' },
  percent: { id: 'reading.rule.percent', defaultMessage: 'Percent' },
  measure: { id: 'reading.rule.measure', defaultMessage: 'Measure' },
  telephone: { id: 'reading.rule.telephone', defaultMessage: 'Phone number' },
  range: { id: 'reading.rule.range', defaultMessage: 'Range' },
  fraction: { id: 'reading.rule.fraction', defaultMessage: 'Fraction' },
  roman: { id: 'reading.rule.roman', defaultMessage: 'Roman numeral' },
  score: { id: 'reading.rule.score', defaultMessage: 'Score' },
  version: { id: 'reading.rule.version', defaultMessage: 'Version' },
  abbreviation: { id: 'reading.rule.abbreviation', defaultMessage: 'Abbreviation' },
  acronym: { id: 'reading.rule.acronym', defaultMessage: 'Acronym' },
  email: { id: 'reading.rule.email', defaultMessage: 'E-mail address' },
  url: { id: 'reading.rule.url', defaultMessage: 'Web address' },
  symbol: { id: 'reading.rule.symbol', defaultMessage: 'Symbol' },
  markup: { id: 'reading.rule.markup', defaultMessage: 'Markup' },
  emoji: { id: 'reading.rule.emoji', defaultMessage: 'Emoji' },
});

const m = defineMessages({
  lexicon: { id: 'reading.source.lexicon', defaultMessage: 'Your lexicon' },
  languages: { id: 'reading.target.languages', defaultMessage: 'Languages (no voice)' },
  silent: { id: 'reading.change.silent', defaultMessage: '(not read)' },
});

/** What decided a change, in the interface's language: its rule class, or the user's lexicon. */
export function changeReason(change: Pick<ReadingChange, 'source' | 'rule'>, intl: IntlShape): string {
  return change.source === 'lexicon' || change.rule === null
    ? intl.formatMessage(m.lexicon)
    : intl.formatMessage(RULE_NAMES[change.rule]);
}

/** What is said instead, or a note when nothing is (an emoji, markup). */
function spokenText(change: ReadingChange, intl: IntlShape): string {
  return change.spoken.trim() === '' ? intl.formatMessage(m.silent) : change.spoken;
}

/** Rows of the list of changes shown at most (a chapter may have thousands; the text marks them all). */
const LIST_LIMIT = 1000;

/**
 * How a text will be read: the text as written with each change marked (its reading on hover or
 * focus; Tab goes from one to the next), the whole reading beside it, and the list of changes with
 * what decided each (a rule class, or the user's lexicon).
 */
export function ReadingView() {
  const intl = useIntl();
  const id = useId();
  const languageName = useLanguageName();
  const text = useStudio((s) => s.readingText);
  const target = useStudio((s) => s.readingTarget);
  const reading = useStudio((s) => s.reading);
  const busy = useStudio((s) => s.readingBusy);
  const error = useStudio((s) => s.readingError);
  const setText = useStudio((s) => s.setReadingText);
  const setTarget = useStudio((s) => s.setReadingTarget);
  const readText = useStudio((s) => s.readText);
  const characters = useMemo(() => countCharacters(text), [text]);
  const tooLong = characters > READING_MAX_CHARS;

  const stale = readingIsStale(reading, text, target);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>
            <FormattedMessage id="reading.title" defaultMessage="How it will be read" />
          </h1>
          <p>
            <FormattedMessage
              id="reading.intro"
              defaultMessage="What every voice will say for your text: numbers, dates, money, units and abbreviations written out as they are spoken, and your lexicon applied. Check a chapter before you render it."
            />
          </p>
        </div>
      </div>
      <form
        className="panel reading-form"
        aria-labelledby={`${id}-form`}
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy && !tooLong && text.trim() !== '') void readText();
        }}
      >
        <h2 id={`${id}-form`} className="visually-hidden">
          <FormattedMessage id="reading.form" defaultMessage="Text to check" />
        </h2>
        <div className="field">
          <label htmlFor={`${id}-text`}>
            <FormattedMessage id="reading.text" defaultMessage="Text" />
          </label>
          <textarea
            id={`${id}-text`}
            className="editor reading-editor"
            value={text}
            placeholder={intl.formatMessage({
              id: 'reading.text.placeholder',
              defaultMessage:
                'Type or paste a text with numbers, dates, prices… (Ctrl+Enter shows its reading)',
            })}
            aria-describedby={`${id}-count`}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (matchesShortcut('reading', e)) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
          />
        </div>
        <div className="row reading-actions">
          <div className="field">
            <label htmlFor={`${id}-target`}>
              <FormattedMessage id="reading.target" defaultMessage="Read for" />
            </label>
            <select
              id={`${id}-target`}
              value={targetValue(target)}
              onChange={(e) => setTarget(targetOf(e.target.value))}
            >
              <optgroup label={intl.formatMessage(m.languages)}>
                {LANGUAGE_CODES.map((language) => (
                  <option key={language} value={`${LANGUAGE_TARGET}${language}`}>
                    {languageName(language)}
                  </option>
                ))}
              </optgroup>
              <VoiceOptions />
            </select>
          </div>
          <button
            type="submit"
            className="primary"
            aria-disabled={busy || tooLong || text.trim() === ''}
            aria-keyshortcuts="Control+Enter Meta+Enter"
          >
            {busy ? (
              <FormattedMessage id="reading.busy" defaultMessage="Reading…" />
            ) : (
              <FormattedMessage id="reading.show" defaultMessage="Show the reading" />
            )}
          </button>
          <ReadingCount id={`${id}-count`} characters={characters} tooLong={tooLong} />
        </div>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </form>
      {reading && (
        <section className="panel" aria-labelledby={`${id}-result`}>
          <div className="panel-head">
            <h2 id={`${id}-result`}>
              <FormattedMessage id="reading.result" defaultMessage="The reading" />
            </h2>
            <span className="muted small" role="status">
              {reading.result.changes.length === 0 ? (
                <FormattedMessage id="reading.unchanged" defaultMessage="Read as written: nothing changes." />
              ) : (
                <FormattedMessage
                  id="reading.changeCount"
                  defaultMessage="{count, plural, one {# change} other {# changes}}"
                  values={{ count: reading.result.changes.length }}
                />
              )}
            </span>
          </div>
          {stale && (
            <p className="hint reading-stale">
              <FormattedMessage
                id="reading.stale"
                defaultMessage="The text or the voice changed since: show the reading again."
              />
            </p>
          )}
          <ReadingResult id={id} text={readingBase(reading)} result={reading.result} />
        </section>
      )}
    </>
  );
}

/** The text's characters against the limit, and where the text came from (the Studio, a chapter). */
function ReadingCount({ id, characters, tooLong }: { id: string; characters: number; tooLong: boolean }) {
  const source = useStudio((s) => s.readingSource);
  return (
    <span id={id} className={tooLong ? 'error small' : 'muted small'}>
      <FormattedMessage
        id="reading.count"
        defaultMessage="{count, plural, one {# character} other {# characters}} of {limit, number}"
        values={{ count: characters, limit: READING_MAX_CHARS }}
      />
      {source.kind !== 'typed' && (
        <>
          {' · '}
          {source.kind === 'editor' ? (
            <FormattedMessage id="reading.source.editor" defaultMessage="the Studio’s text" />
          ) : (
            <FormattedMessage
              id="reading.source.chapter"
              defaultMessage="chapter “{title}”"
              values={{ title: source.title }}
            />
          )}
        </>
      )}
    </span>
  );
}

/**
 * The reading's two sides and its list of changes. Memoised: a chapter's thousands of marks are
 * drawn again only for a new reading or a pick, never for a keystroke in the text above.
 */
const ReadingResult = memo(function ReadingResult({
  id,
  text,
  result,
}: {
  id: string;
  /** The text the changes' offsets are of. */
  text: string;
  result: Reading;
}) {
  const intl = useIntl();
  /** The change picked in the list or the text: its row and its mark are outlined. */
  const [picked, setPicked] = useState<number | null>(null);
  // A new reading has other changes: nothing of it is picked yet.
  const [pickedIn, setPickedIn] = useState(result);
  if (pickedIn !== result) {
    setPickedIn(result);
    setPicked(null);
  }
  const pieces = useMemo(() => readingPieces(text, result.changes), [text, result]);

  /** Shows a change of the list in the text: scrolled to and focused, its note open. */
  const showInText = (index: number) => {
    setPicked(index);
    const mark = document.getElementById(`${id}-change-${index}`);
    mark?.scrollIntoView({ block: 'center' });
    mark?.focus({ preventScroll: true });
  };

  return (
    <>
      <div className="reading-columns">
        <ReadingColumn
          id={`${id}-written`}
          title={<FormattedMessage id="reading.written" defaultMessage="As written" />}
          hint={
            <FormattedMessage
              id="reading.written.hint"
              defaultMessage="Marked parts are read differently: point at one or Tab to it to see how."
            />
          }
        >
          {pieces.map((piece, i) =>
            piece.change === undefined ? (
              <span key={i}>{piece.text}</span>
            ) : (
              <MarkedChange
                key={i}
                id={`${id}-change-${piece.change}`}
                change={result.changes[piece.change]!}
                picked={picked === piece.change}
                onPick={() => setPicked(piece.change!)}
              />
            ),
          )}
        </ReadingColumn>
        <ReadingColumn
          id={`${id}-read`}
          title={<FormattedMessage id="reading.read" defaultMessage="As it will be read" />}
          hint={
            <FormattedMessage
              id="reading.read.hint"
              defaultMessage="The words every voice is given (digits left are read as numbers)."
            />
          }
        >
          {result.reading}
        </ReadingColumn>
      </div>
      {result.changes.length > 0 && (
        <>
          <h3 id={`${id}-list`} className="reading-changes-title">
            <FormattedMessage id="reading.changes" defaultMessage="Changes" />
          </h3>
          {result.changes.length > LIST_LIMIT && (
            <p className="hint">
              <FormattedMessage
                id="reading.changes.limited"
                defaultMessage="The first {shown, number} of {count, number} changes; the text above marks them all."
                values={{ shown: LIST_LIMIT, count: result.changes.length }}
              />
            </p>
          )}
          <table className="data reading-changes" aria-labelledby={`${id}-list`}>
            <thead>
              <tr>
                <th>
                  <FormattedMessage id="reading.changes.written" defaultMessage="Written" />
                </th>
                <th>
                  <FormattedMessage id="reading.changes.spoken" defaultMessage="Read as" />
                </th>
                <th>
                  <FormattedMessage id="reading.changes.why" defaultMessage="Why" />
                </th>
              </tr>
            </thead>
            <tbody>
              {result.changes.slice(0, LIST_LIMIT).map((change, index) => (
                <tr key={index} className={picked === index ? 'picked' : undefined}>
                  <td>
                    <button
                      type="button"
                      className="link"
                      title={intl.formatMessage({
                        id: 'reading.changes.showInText',
                        defaultMessage: 'Show it in the text',
                      })}
                      onClick={() => showInText(index)}
                    >
                      {change.written}
                    </button>
                  </td>
                  <td>{spokenText(change, intl)}</td>
                  <td>
                    <span className={`badge reading-why ${change.source}`}>{changeReason(change, intl)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
});

/** One side of the reading: its heading, a hint, and the text as a group named by the heading. */
function ReadingColumn({
  id,
  title,
  hint,
  children,
}: {
  id: string;
  title: ReactNode;
  hint: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <h3 id={id}>{title}</h3>
      <p className="hint">{hint}</p>
      <div className="reading-text" aria-labelledby={id} role="group">
        {children}
      </div>
    </div>
  );
}

/** A changed part of the written text: a button (Tab reaches it) whose note says how it is read. */
function MarkedChange({
  id,
  change,
  picked,
  onPick,
}: {
  id: string;
  change: ReadingChange;
  picked: boolean;
  onPick(): void;
}) {
  const intl = useIntl();
  return (
    <button
      type="button"
      id={id}
      className={`reading-mark ${change.source}${picked ? ' picked' : ''}`}
      aria-describedby={`${id}-note`}
      onClick={onPick}
    >
      {change.written}
      <span role="tooltip" id={`${id}-note`} className="reading-note">
        {spokenText(change, intl)}
        <span className="reading-note-why">{changeReason(change, intl)}</span>
      </span>
    </button>
  );
}
