import { useId } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { VoiceSelect } from '../../components/VoiceSelect';
import { useStudio } from '../../stores';
import type { LocaleChoice, ThemeChoice } from '../../stores/ui-slice';
import { SentenceCachePanel } from './SentenceCachePanel';
import { ServerSettingsPanel } from './ServerSettingsPanel';

const m = defineMessages({
  themeSystem: { id: 'settings.theme.system', defaultMessage: 'Follow the system' },
  themeLight: { id: 'settings.theme.light', defaultMessage: 'Light' },
  themeDark: { id: 'settings.theme.dark', defaultMessage: 'Dark' },
  languageSystem: { id: 'settings.language.system', defaultMessage: 'Follow the system' },
});

const THEMES: { value: ThemeChoice; label: keyof typeof m }[] = [
  { value: 'system', label: 'themeSystem' },
  { value: 'light', label: 'themeLight' },
  { value: 'dark', label: 'themeDark' },
];

/** Each language is named in itself, so whoever cannot read the current one still finds theirs. */
const LANGUAGES: { value: Exclude<LocaleChoice, 'system'>; name: string; lang: string }[] = [
  { value: 'en', name: 'English', lang: 'en' },
  { value: 'vi', name: 'Tiếng Việt', lang: 'vi' },
];

/** Theme, default voice and output, and where the server keeps its data. */
export function SettingsView() {
  const theme = useStudio((s) => s.theme);
  const setTheme = useStudio((s) => s.setTheme);
  const locale = useStudio((s) => s.locale);
  const setLocale = useStudio((s) => s.setLocale);
  const intl = useIntl();
  const options = useStudio((s) => s.options);
  const setOption = useStudio((s) => s.setOption);
  const id = useId();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>
            <FormattedMessage id="settings.title" defaultMessage="Settings" />
          </h1>
          <p>
            <FormattedMessage
              id="settings.intro"
              defaultMessage="Appearance, language and defaults are kept in this browser; the server's port and data folder in its settings file."
            />
          </p>
        </div>
      </div>
      <div className="panel">
        <h2 style={{ marginBottom: 10 }}>
          <FormattedMessage id="settings.appearance" defaultMessage="Appearance" />
        </h2>
        <div className="row" style={{ alignItems: 'start', gap: 24, flexWrap: 'wrap' }}>
          <div className="field">
            <span className="field-label" id={`${id}-theme`}>
              <FormattedMessage id="settings.theme" defaultMessage="Theme" />
            </span>
            <div
              className="segmented"
              role="radiogroup"
              aria-labelledby={`${id}-theme`}
              style={{ marginTop: 6 }}
            >
              {THEMES.map((t) => (
                <label key={t.value}>
                  <input
                    type="radio"
                    name={`${id}-theme`}
                    value={t.value}
                    checked={theme === t.value}
                    onChange={() => setTheme(t.value)}
                  />
                  {intl.formatMessage(m[t.label])}
                </label>
              ))}
            </div>
          </div>
          <div className="field">
            <label htmlFor={`${id}-language`}>
              <FormattedMessage id="settings.language" defaultMessage="Language" />
            </label>
            <select
              id={`${id}-language`}
              value={locale}
              onChange={(e) =>
                setLocale(e.target.value === 'en' || e.target.value === 'vi' ? e.target.value : 'system')
              }
            >
              <option value="system">{intl.formatMessage(m.languageSystem)}</option>
              {LANGUAGES.map((l) => (
                <option key={l.value} value={l.value} lang={l.lang}>
                  {l.name}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      <div className="panel">
        <h2 style={{ marginBottom: 10 }}>
          <FormattedMessage id="settings.defaults" defaultMessage="Defaults for new requests" />
        </h2>
        <div className="row" style={{ alignItems: 'start', gap: 16 }}>
          <div className="field">
            <label htmlFor={`${id}-voice`}>
              <FormattedMessage id="settings.defaultVoice" defaultMessage="Default voice" />
            </label>
            <VoiceSelect
              id={`${id}-voice`}
              value={options.voice_code}
              onChange={(code) => setOption('voice_code', code)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-format`}>
              <FormattedMessage id="settings.defaultFormat" defaultMessage="Default format" />
            </label>
            <select
              id={`${id}-format`}
              value={options.audio_type}
              onChange={(e) => setOption('audio_type', e.target.value === 'wav' ? 'wav' : 'mp3')}
            >
              <option value="mp3">MP3</option>
              <option value="wav">WAV</option>
            </select>
          </div>
          <div className="field">
            <span className="field-label">
              <FormattedMessage id="settings.subtitles" defaultMessage="Subtitles" />
            </span>
            <label className="check">
              <input
                type="checkbox"
                checked={options.generate_srt}
                onChange={(e) => setOption('generate_srt', e.target.checked)}
              />
              <FormattedMessage id="settings.generateSrt" defaultMessage="Generate SRT by default" />
            </label>
          </div>
        </div>
        <p className="hint">
          <FormattedMessage
            id="settings.defaults.hint"
            defaultMessage="The Studio starts from these; what you change there is remembered too."
          />
        </p>
      </div>
      <ServerSettingsPanel />
      <SentenceCachePanel />
    </>
  );
}
