import { defineMessages, FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import type { ServerSettingsProblem } from '../../../../electron/shared/settings';
import { useStudio } from '../../stores';
import type { CloseChoice } from '../../stores/server-settings-slice';

const m = defineMessages({
  closeDefault: { id: 'settings.server.close.default', defaultMessage: 'This system’s default' },
  closeKeep: { id: 'settings.server.close.keep', defaultMessage: 'Keep the local API running in the tray' },
  closeQuit: { id: 'settings.server.close.quit', defaultMessage: 'Quit the app' },
});

/** The labels of what closing the desktop window does (server-settings-slice.ts). */
const CLOSE_LABELS: Record<CloseChoice, MessageDescriptor> = {
  default: m.closeDefault,
  keep: m.closeKeep,
  quit: m.closeQuit,
};

/** What the last save refused in one field of the settings file, if anything. */
function useProblemOf(field: ServerSettingsProblem['field']): string | undefined {
  return useStudio((s) => s.serverProblems.find((p) => p.field === field)?.message);
}

/** The port and data folder the next start uses; `id` prefixes the controls' ids. */
export function PortAndDataFields({ id }: { id: string }) {
  const intl = useIntl();
  const stored = useStudio((s) => s.serverSettings);
  const { port, dataDir } = useStudio((s) => s.serverForm);
  const edit = useStudio((s) => s.editServerForm);
  const portProblem = useProblemOf('port');
  const dataDirProblem = useProblemOf('data_dir');
  return (
    <div className="row" style={{ alignItems: 'start', gap: 16 }}>
      <div className="field" style={{ width: 140 }}>
        <label htmlFor={`${id}-port`}>
          <FormattedMessage id="settings.server.port" defaultMessage="Port" />
        </label>
        <input
          id={`${id}-port`}
          type="number"
          inputMode="numeric"
          min={0}
          max={65535}
          step={1}
          value={port}
          disabled={!stored}
          aria-invalid={portProblem !== undefined}
          aria-describedby={portProblem ? `${id}-port-error` : `${id}-port-hint`}
          onChange={(e) => edit({ port: e.target.value })}
        />
        {portProblem ? (
          <p className="error" id={`${id}-port-error`}>
            {portProblem}
          </p>
        ) : (
          <p className="hint" id={`${id}-port-hint`}>
            <FormattedMessage
              id="settings.server.port.hint"
              defaultMessage="0 picks a free port each start."
            />
          </p>
        )}
      </div>
      <div className="field" style={{ flex: 1, minWidth: 260 }}>
        <label htmlFor={`${id}-data`}>
          <FormattedMessage id="settings.server.dataDir" defaultMessage="Data folder" />
        </label>
        <input
          id={`${id}-data`}
          type="text"
          spellCheck={false}
          placeholder={intl.formatMessage({
            id: 'settings.server.dataDir.placeholder',
            defaultMessage: 'The per-user app data folder',
          })}
          value={dataDir}
          disabled={!stored}
          aria-invalid={dataDirProblem !== undefined}
          aria-describedby={dataDirProblem ? `${id}-data-error` : `${id}-data-hint`}
          onChange={(e) => edit({ dataDir: e.target.value })}
        />
        {dataDirProblem ? (
          <p className="error" id={`${id}-data-error`}>
            {dataDirProblem}
          </p>
        ) : (
          <p className="hint" id={`${id}-data-hint`}>
            <FormattedMessage
              id="settings.server.dataDir.hint"
              defaultMessage="An absolute path for the database and audio files; empty for the per-user app data folder."
            />
          </p>
        )}
      </div>
    </div>
  );
}

/** The origins allowed to call the API from a browser, one a line. */
export function OriginsField({ id }: { id: string }) {
  const intl = useIntl();
  const stored = useStudio((s) => s.serverSettings);
  const { origins } = useStudio((s) => s.serverForm);
  const edit = useStudio((s) => s.editServerForm);
  const originsProblem = useProblemOf('allowed_origins');
  return (
    <div className="field" style={{ maxWidth: 520 }}>
      <label htmlFor={`${id}-origins`}>
        <FormattedMessage
          id="settings.server.origins"
          defaultMessage="Allowed origins (web pages, browser extensions and apps)"
        />
      </label>
      <textarea
        id={`${id}-origins`}
        rows={3}
        spellCheck={false}
        placeholder={intl.formatMessage({
          id: 'settings.server.origins.placeholder',
          defaultMessage: "http://127.0.0.1:5001\nchrome-extension://'<'extension id'>'",
        })}
        value={origins}
        disabled={!stored}
        aria-invalid={originsProblem !== undefined}
        aria-describedby={originsProblem ? `${id}-origins-error` : `${id}-origins-hint`}
        onChange={(e) => edit({ origins: e.target.value })}
      />
      {originsProblem ? (
        <p className="error" id={`${id}-origins-error`}>
          {originsProblem}
        </p>
      ) : (
        <p className="hint" id={`${id}-origins-hint`}>
          <FormattedMessage
            id="settings.server.origins.hint"
            defaultMessage="One origin a line, scheme://host[:port] with no path (* alone for every site, null for local files): a page such as KoboldAI Lite, an extension, or an app such as an Obsidian plugin (app://obsidian.md), that calls this API from a browser with an API key. Other origins stay refused, and none gets the studio’s sign-in. Applies the next time the studio starts; {count, plural, =0 {this run allows none.} other {this run allows {origins}.}}"
            values={{
              count: stored?.running_allowed_origins.length ?? 0,
              origins: intl.formatList(stored?.running_allowed_origins ?? []),
            }}
          />
        </p>
      )}
    </div>
  );
}

/** What closing the desktop window does (applies at once). */
export function CloseChoiceField({ id }: { id: string }) {
  const intl = useIntl();
  const stored = useStudio((s) => s.serverSettings);
  const { onClose } = useStudio((s) => s.serverForm);
  const edit = useStudio((s) => s.editServerForm);
  return (
    <div className="field" style={{ maxWidth: 520 }}>
      <label htmlFor={`${id}-close`}>
        <FormattedMessage id="settings.server.close" defaultMessage="When the desktop window closes" />
      </label>
      <select
        id={`${id}-close`}
        value={onClose}
        disabled={!stored}
        aria-describedby={`${id}-close-hint`}
        onChange={(e) => edit({ onClose: e.target.value as CloseChoice })}
      >
        {Object.entries(CLOSE_LABELS).map(([key, label]) => (
          <option key={key} value={key}>
            {intl.formatMessage(label)}
          </option>
        ))}
      </select>
      <p className="hint" id={`${id}-close-hint`}>
        <FormattedMessage
          id="settings.server.close.hint"
          defaultMessage="The default quits on Linux and keeps running on macOS and Windows. Applies at once. Keeping it running needs a tray icon: on Linux choose it only where tray icons show (GNOME needs the AppIndicator extension); without one the app always quits."
        />
      </p>
    </div>
  );
}
