import { FormattedMessage, useIntl } from 'react-intl';
import { useStudio } from '../../stores';

/** The address and data folder of the server this studio talks to (what this run uses). */
export function RunningServerTable() {
  const session = useStudio((s) => s.session);
  const intl = useIntl();
  const running = session ? new URL(session.base_url) : null;
  return (
    <table
      className="data"
      aria-label={intl.formatMessage({ id: 'settings.server.running', defaultMessage: 'Running server' })}
    >
      <tbody>
        <tr>
          <th scope="row">
            <FormattedMessage id="settings.server.address" defaultMessage="Address" />
          </th>
          <td>
            <code>{session?.base_url}</code>
          </td>
        </tr>
        <tr>
          <th scope="row">
            <FormattedMessage id="settings.server.runningPort" defaultMessage="Running port" />
          </th>
          <td>
            <code>{running?.port ?? ''}</code>
          </td>
        </tr>
        <tr>
          <th scope="row">
            <FormattedMessage id="settings.server.runningDataDir" defaultMessage="Running data folder" />
          </th>
          <td>
            <code>
              {session?.data_dir ??
                intl.formatMessage({ id: 'settings.server.unknown', defaultMessage: 'unknown' })}
            </code>
          </td>
        </tr>
      </tbody>
    </table>
  );
}
