import { FormattedMessage, useIntl } from 'react-intl';
import { MAX_CUSTOM_LEXICON_ENTRIES } from '../../../../electron/shared/custom-voices';
import {
  MAX_MATCH_CHARS,
  MAX_REPLACEMENT_CHARS,
  type LexiconKind,
} from '../../../../electron/shared/lexicon';
import type { CustomVoiceDraft } from './custom-voice-draft';
import type { UpdateDraft } from './custom-voice-form-state';

type Entry = CustomVoiceDraft['lexicon'][number];

/** The voice's own pronunciations: a row per entry, Add a pronunciation. */
export function CustomVoiceLexiconFields({
  id,
  draft,
  update,
}: {
  id: string;
  draft: CustomVoiceDraft;
  update: UpdateDraft;
}) {
  const intl = useIntl();
  const setEntry = (index: number, change: Partial<Entry>) =>
    update({ lexicon: draft.lexicon.map((e, i) => (i === index ? { ...e, ...change } : e)) });
  return (
    <fieldset className="field custom-voice-lexicon">
      <legend className="field-label">
        <FormattedMessage id="voices.form.lexicon" defaultMessage="Pronunciations of this voice" />
      </legend>
      {draft.lexicon.length === 0 && (
        <p className="hint">
          <FormattedMessage
            id="voices.form.lexicon.none"
            defaultMessage="None: the shared lexicon still applies."
          />
        </p>
      )}
      <ul
        aria-label={intl.formatMessage({
          id: 'voices.form.lexicon.list',
          defaultMessage: 'Pronunciations',
        })}
      >
        {draft.lexicon.map((entry, i) => (
          <LexiconEntryRow
            key={i}
            id={id}
            i={i}
            entry={entry}
            onChange={(change) => setEntry(i, change)}
            onRemove={() => update({ lexicon: draft.lexicon.filter((_, j) => j !== i) })}
          />
        ))}
      </ul>
      <button
        type="button"
        disabled={draft.lexicon.length >= MAX_CUSTOM_LEXICON_ENTRIES}
        onClick={() =>
          update({ lexicon: [...draft.lexicon, { match: '', kind: 'respell', replacement: '' }] })
        }
      >
        <FormattedMessage id="voices.form.lexicon.add" defaultMessage="Add a pronunciation" />
      </button>
    </fieldset>
  );
}

/** One pronunciation: the word, its kind, what to say, Remove. */
function LexiconEntryRow({
  id,
  i,
  entry,
  onChange,
  onRemove,
}: {
  id: string;
  i: number;
  entry: Entry;
  onChange(change: Partial<Entry>): void;
  onRemove(): void;
}) {
  const intl = useIntl();
  return (
    <li className="row">
      <label className="visually-hidden" htmlFor={`${id}-match-${i}`}>
        <FormattedMessage id="voices.form.lexicon.word" defaultMessage="Word {n}" values={{ n: i + 1 }} />
      </label>
      <input
        id={`${id}-match-${i}`}
        type="text"
        maxLength={MAX_MATCH_CHARS}
        placeholder={intl.formatMessage({
          id: 'voices.form.lexicon.word.placeholder',
          defaultMessage: 'Word or phrase',
        })}
        value={entry.match}
        onChange={(e) => onChange({ match: e.target.value })}
      />
      <label className="visually-hidden" htmlFor={`${id}-entry-kind-${i}`}>
        <FormattedMessage
          id="voices.form.lexicon.kind"
          defaultMessage="Kind of pronunciation {n}"
          values={{ n: i + 1 }}
        />
      </label>
      <select
        id={`${id}-entry-kind-${i}`}
        value={entry.kind}
        onChange={(e) => onChange({ kind: e.target.value as LexiconKind })}
      >
        <option value="respell">
          {intl.formatMessage({ id: 'voices.form.lexicon.respelling', defaultMessage: 'Respelling' })}
        </option>
        <option value="ipa">IPA</option>
        <option value="abbreviation">
          {intl.formatMessage({ id: 'lexicon.abbreviation', defaultMessage: 'Abbreviation' })}
        </option>
        <option value="unit">{intl.formatMessage({ id: 'lexicon.unit', defaultMessage: 'Unit' })}</option>
      </select>
      <label className="visually-hidden" htmlFor={`${id}-replacement-${i}`}>
        <FormattedMessage
          id="voices.form.lexicon.say"
          defaultMessage="Say word {n} as"
          values={{ n: i + 1 }}
        />
      </label>
      <input
        id={`${id}-replacement-${i}`}
        type="text"
        maxLength={MAX_REPLACEMENT_CHARS}
        placeholder={
          entry.kind === 'ipa'
            ? intl.formatMessage(
                { id: 'voices.form.lexicon.example', defaultMessage: 'e.g. {example}' },
                { example: 'ʃɪˈvɔːn' },
              )
            : intl.formatMessage({
                id: 'voices.form.lexicon.respelling.placeholder',
                defaultMessage: 'e.g. shiv awn',
              })
        }
        lang={entry.kind === 'ipa' ? 'und-fonipa' : undefined}
        spellCheck={false}
        value={entry.replacement}
        onChange={(e) => onChange({ replacement: e.target.value })}
      />
      <button
        type="button"
        aria-label={intl.formatMessage(
          { id: 'voices.form.lexicon.remove', defaultMessage: 'Remove pronunciation {n}' },
          { n: i + 1 },
        )}
        onClick={onRemove}
      >
        <FormattedMessage id="common.remove" defaultMessage="Remove" />
      </button>
    </li>
  );
}
