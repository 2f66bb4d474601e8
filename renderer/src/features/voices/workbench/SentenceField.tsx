import { FormattedMessage } from 'react-intl';
import { useStudio } from '../../../stores';

export const MAX_SENTENCE = 300;

/** The workbench's sentence: its box, its length (too long, empty) and the way back to the default one. */
export function SentenceField({
  id,
  sentence,
  tooLong,
  empty,
}: {
  id: string;
  sentence: string;
  tooLong: boolean;
  empty: boolean;
}) {
  const custom = useStudio((s) => s.workbench.sentence !== null);
  const setSentence = useStudio((s) => s.setWorkbenchSentence);
  return (
    <div className="field">
      <label htmlFor={`${id}-sentence`}>
        <FormattedMessage id="voices.workbench.sentence" defaultMessage="Your sentence" />
      </label>
      <textarea
        id={`${id}-sentence`}
        rows={2}
        value={sentence}
        aria-invalid={tooLong || empty}
        aria-describedby={`${id}-sentence-help`}
        onChange={(e) => setSentence(e.target.value)}
      />
      <div className="row small" id={`${id}-sentence-help`}>
        <span className={tooLong ? 'error' : 'muted'}>
          <FormattedMessage
            id="voices.workbench.sentenceLength"
            defaultMessage="{count, number} / {max, number} characters{state, select, long {: too long for an audition} empty {: write something to speak} other {}}"
            values={{
              count: sentence.length,
              max: MAX_SENTENCE,
              state: tooLong ? 'long' : empty ? 'empty' : 'ok',
            }}
          />
        </span>
        <span className="spacer" />
        {custom && (
          <button type="button" className="link small" onClick={() => setSentence(null)}>
            <FormattedMessage id="voices.workbench.useDefault" defaultMessage="Use the default sentence" />
          </button>
        )}
      </div>
    </div>
  );
}
