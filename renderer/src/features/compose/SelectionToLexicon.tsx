import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { LanguageCode } from '../../../../electron/shared/languages';
import { useAudition } from '../../lib/useAudition';
import { LexiconEntryForm } from '../lexicon/LexiconEntryForm';

/**
 * The word selected in the editor offered to the lexicon ("Add … to lexicon"), the form that
 * says how to say it (it keeps the word once opened), and what was added.
 */
export function SelectionToLexicon({
  selected,
  language,
}: {
  selected: string | undefined;
  language: LanguageCode;
}) {
  const intl = useIntl();
  const [adding, setAdding] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const audition = useAudition();
  return (
    <>
      {selected !== undefined && adding === null && (
        <div className="selection-bar">
          <button
            type="button"
            onClick={() => {
              setAdded(null);
              setAdding(selected);
            }}
          >
            <FormattedMessage
              id="compose.lexicon.add"
              defaultMessage="Add “{text}” to lexicon"
              values={{ text: selected.length > 40 ? `${selected.slice(0, 40)}…` : selected }}
            />
          </button>
        </div>
      )}
      {adding !== null && (
        <div
          className="lexicon-popover"
          role="dialog"
          aria-label={intl.formatMessage({ id: 'compose.lexicon.dialog', defaultMessage: 'Add to lexicon' })}
        >
          <h3>
            <FormattedMessage
              id="compose.lexicon.how"
              defaultMessage="How should “{text}” be said?"
              values={{ text: adding }}
            />
          </h3>
          <LexiconEntryForm
            compact
            initial={{ match: adding, language }}
            audition={audition}
            onSaved={(entry) => {
              setAdding(null);
              setAdded(entry.match);
            }}
            onCancel={() => {
              audition.stop();
              setAdding(null);
            }}
          />
        </div>
      )}
      {added && (
        <p className="hint" role="status" style={{ marginTop: 8 }}>
          <FormattedMessage
            id="compose.lexicon.added"
            defaultMessage="“{text}” is in the lexicon: every voice of its language says it this way."
            values={{ text: added }}
          />
        </p>
      )}
    </>
  );
}
