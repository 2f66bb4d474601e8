import { useEffect, useId, useState, type FormEvent } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import type { ServerSettings } from '../../../../electron/shared/api';
import { checkServerSettings, type ServerSettingsProblem } from '../../../../electron/shared/settings';
import { ApiError, errorMessage } from '../../lib/api-client';
import { useClient, useStudio } from '../../stores';
import type { UnknownVoicePolicy } from '../../../../electron/shared/voice-mapping';
import { aliasesOf, aliasRowsOf, VoiceMappingFields, type AliasRow } from './VoiceMappingFields';

const m = defineMessages({
  nextStart: {
    id: 'settings.server.nextStart',
    defaultMessage: 'Applies the next time the studio starts (npm start / the desktop app).',
  },
  closeDefault: { id: 'settings.server.close.default', defaultMessage: 'This system’s default' },
  closeKeep: { id: 'settings.server.close.keep', defaultMessage: 'Keep the local API running in the tray' },
  closeQuit: { id: 'settings.server.close.quit', defaultMessage: 'Quit the app' },
});

/**
 * The form's text as the API's values: an empty data folder means the per-user app data folder;
 * allowed origins are one a line (blank lines left out).
 */
function toValues(
  port: string,
  dataDir: string,
  origins: string,
): { port: unknown; data_dir: string | null; allowed_origins: string[] } {
  const trimmed = port.trim();
  return {
    port: trimmed === '' || !/^-?\d+(\.\d+)?$/.test(trimmed) ? trimmed : Number(trimmed),
    data_dir: dataDir.trim() === '' ? null : dataDir.trim(),
    allowed_origins: origins
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  };
}

/** What closing the desktop window does, as the Settings view offers it. */
const CLOSE_CHOICES = {
  default: { value: null, label: m.closeDefault },
  keep: { value: true, label: m.closeKeep },
  quit: { value: false, label: m.closeQuit },
} as const;
type CloseChoice = keyof typeof CLOSE_CHOICES;
const closeChoiceOf = (value: boolean | null): CloseChoice =>
  value === null ? 'default' : value ? 'keep' : 'quit';

function fieldOf(message: string): ServerSettingsProblem['field'] | undefined {
  if (/^port\b/i.test(message)) return 'port';
  if (/^data folder\b/i.test(message)) return 'data_dir';
  if (/^allowed origin/i.test(message)) return 'allowed_origins';
  return undefined;
}

/**
 * Port, data folder, voice mapping and allowed origins of the shared settings file, which
 * `npm start` and the desktop app read when they start. The running server keeps its own until
 * then; its address stays shown.
 */
export function ServerSettingsPanel() {
  const client = useClient();
  const session = useStudio((s) => s.session);
  const id = useId();
  const intl = useIntl();
  const [stored, setStored] = useState<ServerSettings | null>(null);
  const [port, setPort] = useState('');
  const [dataDir, setDataDir] = useState('');
  const [origins, setOrigins] = useState('');
  const [onClose, setOnClose] = useState<CloseChoice>('default');
  const [unknownVoices, setUnknownVoices] = useState<UnknownVoicePolicy>('refuse');
  const [aliasRows, setAliasRows] = useState<AliasRow[]>([]);
  const [aliasProblem, setAliasProblem] = useState<string | undefined>();
  const [problems, setProblems] = useState<ServerSettingsProblem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<ServerSettings | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    client.serverSettings().then(
      (s) => {
        if (!live) return;
        setStored(s);
        setPort(String(s.port));
        setDataDir(s.data_dir ?? '');
        setOrigins(s.allowed_origins.join('\n'));
        setOnClose(closeChoiceOf(s.keep_running_when_closed));
        setUnknownVoices(s.unknown_voices);
        setAliasRows(aliasRowsOf(s.voice_aliases));
      },
      (e: unknown) => {
        if (!live) return;
        setError(errorMessage(e));
      },
    );
    return () => {
      live = false;
    };
  }, [client]);

  const problemOf = (field: ServerSettingsProblem['field']) =>
    problems.find((p) => p.field === field)?.message;
  const portProblem = problemOf('port');
  const dataDirProblem = problemOf('data_dir');
  const originsProblem = problemOf('allowed_origins');

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(null);
    const values = toValues(port, dataDir, origins);
    const found = checkServerSettings(values);
    setProblems(found);
    const table = aliasesOf(aliasRows, intl);
    setAliasProblem('problem' in table ? table.problem : undefined);
    if (found.length > 0 || 'problem' in table) return;
    setSaving(true);
    try {
      const result = await client.updateServerSettings({
        port: values.port as number,
        data_dir: values.data_dir,
        keep_running_when_closed: CLOSE_CHOICES[onClose].value,
        unknown_voices: unknownVoices,
        voice_aliases: table.aliases,
        allowed_origins: values.allowed_origins,
      });
      setStored(result);
      setOrigins(result.allowed_origins.join('\n'));
      setSaved(result);
    } catch (e) {
      // The server's sentence goes next to the field it names.
      const message = errorMessage(e);
      const field = e instanceof ApiError && e.code === 'INVALID_FIELD' ? fieldOf(message) : undefined;
      if (field) setProblems([{ field, message }]);
      else if (/^voice_aliases\b/.test(message)) setAliasProblem(message);
      else setError(message);
    } finally {
      setSaving(false);
    }
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
              onChange={(e) => {
                setPort(e.target.value);
                setSaved(null);
                setProblems((p) => p.filter((x) => x.field !== 'port'));
              }}
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
              onChange={(e) => {
                setDataDir(e.target.value);
                setSaved(null);
                setProblems((p) => p.filter((x) => x.field !== 'data_dir'));
              }}
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
              defaultMessage="Allowed origins (web pages and browser extensions)"
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
            onChange={(e) => {
              setOrigins(e.target.value);
              setSaved(null);
              setProblems((p) => p.filter((x) => x.field !== 'allowed_origins'));
            }}
          />
          {originsProblem ? (
            <p className="error" id={`${id}-origins-error`}>
              {originsProblem}
            </p>
          ) : (
            <p className="hint" id={`${id}-origins-hint`}>
              <FormattedMessage
                id="settings.server.origins.hint"
                defaultMessage="One origin a line, scheme://host[:port] with no path (never *): a page such as KoboldAI Lite, or an extension, that calls this API from a browser with an API key. Other origins stay refused, and none gets the studio’s sign-in. Applies the next time the studio starts; {count, plural, =0 {this run allows none.} other {this run allows {origins}.}}"
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
            onChange={(e) => {
              setOnClose(e.target.value as CloseChoice);
              setSaved(null);
            }}
          >
            {Object.entries(CLOSE_CHOICES).map(([key, choice]) => (
              <option key={key} value={key}>
                {intl.formatMessage(choice.label)}
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
          onUnknownVoices={(value) => {
            setUnknownVoices(value);
            setSaved(null);
          }}
          onRows={(rows) => {
            setAliasRows(rows);
            setSaved(null);
            setAliasProblem(undefined);
          }}
        />
        <div className="row" style={{ gap: 12, alignItems: 'center' }}>
          <button type="submit" className="primary" disabled={!stored || saving}>
            {saving
              ? intl.formatMessage({ id: 'common.saving', defaultMessage: 'Saving…' })
              : intl.formatMessage({ id: 'common.save', defaultMessage: 'Save' })}
          </button>
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
