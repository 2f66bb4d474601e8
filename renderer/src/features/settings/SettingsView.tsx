import { useId } from 'react';
import { VoiceSelect } from '../../components/VoiceSelect';
import { useStudio } from '../../stores';
import type { ThemeChoice } from '../../stores/ui-slice';
import { SentenceCachePanel } from './SentenceCachePanel';
import { ServerSettingsPanel } from './ServerSettingsPanel';

const THEMES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Theme, default voice and output, and where the server keeps its data. */
export function SettingsView() {
  const theme = useStudio((s) => s.theme);
  const setTheme = useStudio((s) => s.setTheme);
  const options = useStudio((s) => s.options);
  const setOption = useStudio((s) => s.setOption);
  const id = useId();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Settings</h1>
          <p>
            Appearance and defaults are kept in this browser; the server's port and data folder in its
            settings file.
          </p>
        </div>
      </div>
      <div className="panel">
        <h2 style={{ marginBottom: 10 }}>Appearance</h2>
        <span className="field-label" id={`${id}-theme`}>
          Theme
        </span>
        <div className="segmented" role="radiogroup" aria-labelledby={`${id}-theme`} style={{ marginTop: 6 }}>
          {THEMES.map((t) => (
            <label key={t.value}>
              <input
                type="radio"
                name={`${id}-theme`}
                value={t.value}
                checked={theme === t.value}
                onChange={() => setTheme(t.value)}
              />
              {t.label}
            </label>
          ))}
        </div>
      </div>
      <div className="panel">
        <h2 style={{ marginBottom: 10 }}>Defaults for new requests</h2>
        <div className="row" style={{ alignItems: 'start', gap: 16 }}>
          <div className="field">
            <label htmlFor={`${id}-voice`}>Default voice</label>
            <VoiceSelect
              id={`${id}-voice`}
              value={options.voice_code}
              onChange={(code) => setOption('voice_code', code)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-format`}>Default format</label>
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
            <span className="field-label">Subtitles</span>
            <label className="check">
              <input
                type="checkbox"
                checked={options.generate_srt}
                onChange={(e) => setOption('generate_srt', e.target.checked)}
              />
              Generate SRT by default
            </label>
          </div>
        </div>
        <p className="hint">The Studio starts from these; what you change there is remembered too.</p>
      </div>
      <ServerSettingsPanel />
      <SentenceCachePanel />
    </>
  );
}
