import { useEffect, useId, type FormEvent } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { useStudio } from '../../stores';
import { aliasesOf, VoiceMappingFields } from './VoiceMappingFields';
import { RunningServerTable } from './RunningServerTable';
import { CloseChoiceField, OriginsField, PortAndDataFields } from './ServerSettingsFields';
import { BusyButton } from '../../components/BusyButton';

const m = defineMessages({
  nextStart: {
    id: 'settings.server.nextStart',
    defaultMessage: 'Applies the next time the studio starts (npm start / the desktop app).',
  },
});

/**
 * Port, data folder, voice mapping and allowed origins of the shared settings file, which
 * `npm start` and the desktop app read when they start. The running server keeps its own until
 * then; its address stays shown.
 */
export function ServerSettingsPanel() {
  const id = useId();
  const intl = useIntl();
  const stored = useStudio((s) => s.serverSettings);
  const { unknownVoices, aliasRows } = useStudio((s) => s.serverForm);
  const aliasProblem = useStudio((s) => s.serverAliasProblem);
  const error = useStudio((s) => s.serverSettingsError);
  const saving = useStudio((s) => s.serverSettingsSaving);
  const load = useStudio((s) => s.loadServerSettings);
  const edit = useStudio((s) => s.editServerForm);
  const saveSettings = useStudio((s) => s.saveServerSettings);

  useEffect(() => {
    void load();
  }, [load]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    // Enter in a field submits even while Save cannot act (it is aria-disabled, not disabled).
    if (!stored || saving) return;
    await saveSettings(aliasesOf(aliasRows, intl));
  };

  return (
    <div className="panel">
      <h2 style={{ marginBottom: 10 }}>
        <FormattedMessage id="settings.server.title" defaultMessage="Server" />
      </h2>
      <RunningServerTable />
      <form
        onSubmit={(e) => void save(e)}
        noValidate
        style={{ marginTop: 16 }}
        aria-label={intl.formatMessage({ id: 'settings.server.form', defaultMessage: 'Server settings' })}
      >
        <PortAndDataFields id={id} />
        <OriginsField id={id} />
        <CloseChoiceField id={id} />
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
        <SavedNotice />
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

/** What the last save did: applied now, or kept for the next start. */
function SavedNotice() {
  const intl = useIntl();
  const session = useStudio((s) => s.session);
  const saved = useStudio((s) => s.serverSettingsSaved);
  return (
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
  );
}
