import { useEffect, useId, type FormEvent } from 'react';
import { defineMessages, FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import type { ServerSettingsProblem } from '../../../../electron/shared/settings';
import { useStudio } from '../../stores';
import type { CloseChoice } from '../../stores/server-settings-slice';
import { aliasesOf, VoiceMappingFields } from './VoiceMappingFields';
import { BusyButton } from '../../components/BusyButton';

const m = defineMessages({
  nextStart: {
    id: 'settings.server.nextStart',
    defaultMessage: 'Applies the next time the studio starts (npm start / the desktop app).',
  },
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

/**
 * Port, data folder, voice mapping and allowed origins of the shared settings file, which
 * `npm start` and the desktop app read when they start. The running server keeps its own until
 * then; its address stays shown.
 */
export function ServerSettingsPanel() {
  const session = useStudio((s) => s.session);
  const id = useId();
  const intl = useIntl();
  const stored = useStudio((s) => s.serverSettings);
  const { port, dataDir, origins, onClose, unknownVoices, aliasRows } = useStudio((s) => s.serverForm);
  const problems = useStudio((s) => s.serverProblems);
  const aliasProblem = useStudio((s) => s.serverAliasProblem);
  const error = useStudio((s) => s.serverSettingsError);
  const saved = useStudio((s) => s.serverSettingsSaved);
  const saving = useStudio((s) => s.serverSettingsSaving);
  const load = useStudio((s) => s.loadServerSettings);
  const edit = useStudio((s) => s.editServerForm);
  const saveSettings = useStudio((s) => s.saveServerSettings);

  useEffect(() => {
    void load();
  }, [load]);

  const problemOf = (field: ServerSettingsProblem['field']) =>
    problems.find((p) => p.field === field)?.message;
  const portProblem = problemOf('port');
  const dataDirProblem = problemOf('data_dir');
  const originsProblem = problemOf('allowed_origins');

  const save = async (event: FormEvent) => {
    event.preventDefault();
    // Enter in a field submits even while Save cannot act (it is aria-disabled, not disabled).
    if (!stored || saving) return;
    await saveSettings(aliasesOf(aliasRows, intl));
  };

  const running = session ? new URL(session.base_url) : null;
  return (
    <div className="panel">
      <h2 style={{ marginBottom: 10 }}>
        <FormattedMessage id="settings.server.title" defaultMessage="Server" />
      </h2>
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
      <form
        onSubmit={(e) => void save(e)}
        noValidate
        style={{ marginTop: 16 }}
        aria-label={intl.formatMessage({ id: 'settings.server.form', defaultMessage: 'Server settings' })}
      >
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
        <VoiceMappingFields
          unknownVoices={unknownVoices}
          rows={aliasRows}
          problem={aliasProblem}
          disabled={!stored}
          running={
            stored
              ? {
                  unknownVoices: stored.running_unknown_voices,
                  aliases: Object.keys(stored.running_voice_aliases).length,
                }
              : undefined
          }
          onUnknownVoices={(value) => edit({ unknownVoices: value })}
          onRows={(rows) => edit({ aliasRows: rows })}
        />
        <div className="row" style={{ gap: 12, alignItems: 'center' }}>
          <BusyButton type="submit" className="primary" busy={saving} unavailable={!stored}>
            {saving
              ? intl.formatMessage({ id: 'common.saving', defaultMessage: 'Saving…' })
              : intl.formatMessage({ id: 'common.save', defaultMessage: 'Save' })}
          </BusyButton>
          <p className="hint">{intl.formatMessage(m.nextStart)}</p>
        </div>
        <div role="status" aria-live="polite">
          {saved && (
            <p className="notice" style={{ marginTop: 10 }}>
              {saved.restart_required
                ? intl.formatMessage(
                    {
                      id: 'settings.server.savedRestart',
                      defaultMessage: 'Saved. {nextStart} This run keeps {address}.',
                    },
                    {
                      nextStart: intl.formatMessage(m.nextStart),
                      address:
                        session?.base_url ??
                        intl.formatMessage({
                          id: 'settings.server.itsAddress',
                          defaultMessage: 'its address',
                        }),
                    },
                  )
                : intl.formatMessage({
                    id: 'settings.server.savedNow',
                    defaultMessage: 'Saved. These are the values this run already uses.',
                  })}
            </p>
          )}
        </div>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {stored && (
          <p className="hint" style={{ marginTop: 10 }}>
            <FormattedMessage
              id="settings.server.keptIn"
              defaultMessage="Kept in <code>{file}</code>. <code>npm run serve</code> uses its own <code>--port</code>, <code>--data-dir</code>, <code>--unknown-voices</code>, <code>--voice-alias</code> and <code>--allow-origin</code> options instead."
              values={{ file: stored.settings_file, code: (chunks) => <code>{chunks}</code> }}
            />
          </p>
        )}
      </form>
    </div>
  );
}
