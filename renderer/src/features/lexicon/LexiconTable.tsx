import { FormattedMessage, useIntl } from 'react-intl';
import type { LexiconEntry } from '../../../../electron/shared/lexicon';
import { useLanguageName } from '../../lib/intl-text';

/** How a row's Play button shows: the entry loading, playing, or neither. */
type Playing = 'loading' | 'playing' | null;

/** One entry's row: play the entry, edit, remove. */
function EntryRow({
  entry,
  playing,
  onPlay,
  onEdit,
  onRemove,
}: {
  entry: LexiconEntry;
  playing: Playing;
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

/** The lexicon's entries shown (after search and language), a row each. */
export function LexiconTable({
  entries,
  playingOf,
  onPlay,
  onEdit,
  onRemove,
}: {
  entries: readonly LexiconEntry[];
  playingOf(entry: LexiconEntry): Playing;
  onPlay(entry: LexiconEntry): void;
  onEdit(entry: LexiconEntry): void;
  onRemove(entry: LexiconEntry): void;
}) {
  const intl = useIntl();
  return (
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
        {entries.map((entry) => (
          <EntryRow
            key={entry.id}
            entry={entry}
            playing={playingOf(entry)}
            onPlay={() => onPlay(entry)}
            onEdit={() => onEdit(entry)}
            onRemove={() => onRemove(entry)}
          />
        ))}
      </tbody>
    </table>
  );
}
