import { FormattedMessage, useIntl } from 'react-intl';
import { useStudio } from '../../../stores';
import { tally } from './logic';
import { useVoiceFacts } from './voice-results';

/** The blind rounds' tally (kept across reloads): each voice's wins and rounds, and a way to clear it. */
export function BlindTally() {
  const intl = useIntl();
  const facts = useVoiceFacts();
  const blind = useStudio((s) => s.workbench.blind);
  const clearBlindResults = useStudio((s) => s.clearBlindResults);
  const lines = tally(blind);
  if (lines.length === 0) return null;
  return (
    <>
      <table className="blind-tally">
        <caption>
          <FormattedMessage
            id="voices.workbench.blind.tally"
            defaultMessage="Tally over {count, plural, one {# round} other {# rounds}}"
            values={{ count: blind.length }}
          />
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <FormattedMessage id="voices.workbench.blind.voice" defaultMessage="Voice" />
            </th>
            <th scope="col">
              <FormattedMessage id="voices.workbench.blind.wins" defaultMessage="Wins" />
            </th>
            <th scope="col">
              <FormattedMessage id="voices.workbench.blind.rounds" defaultMessage="Rounds" />
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.voiceCode}>
              <th scope="row">
                {facts(l.voiceCode).name} <code>{l.voiceCode}</code>
              </th>
              <td>{intl.formatNumber(l.wins)}</td>
              <td>{intl.formatNumber(l.rounds)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" className="link small" onClick={clearBlindResults}>
        <FormattedMessage id="voices.workbench.blind.clear" defaultMessage="Clear the tally" />
      </button>
    </>
  );
}
