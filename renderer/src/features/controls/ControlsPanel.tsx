import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import {
  BITRATES,
  MODEL_IDS,
  RATE_MAX,
  RATE_MIN,
  VOLUME_MAX,
  VOLUME_MIN,
  type Bitrate,
  type ModelId,
} from '../../../../electron/shared/options';
import { defaultPackHint, EngineBadge } from '../../components/EngineBadge';
import { VoiceSelect } from '../../components/VoiceSelect';
import { catalogueVoiceOf, describeBase } from '../../lib/voice-codes';
import { engineKind } from '../../stores/voice-packs-slice';
import { useStudio } from '../../stores';
import { callbackUrlProblem } from '../../stores/options-slice';
import { formatShown } from '../../lib/intl-text';
import { SliderField } from './SliderField';

const ESPEAK = 'eSpeak';

const oneDecimal = (v: number) => v.toFixed(1);

/** Voice, prosody and output options for the next request. */
export function ControlsPanel() {
  const options = useStudio((s) => s.options);
  const setOption = useStudio((s) => s.setOption);
  const resetProsody = useStudio((s) => s.resetProsody);
  const setView = useStudio((s) => s.setView);
  const id = useId();
  const intl = useIntl();
  const customVoices = useStudio((s) => s.customVoices);
  const custom = customVoices.find((v) => v.code === options.voice_code);
  const voice = catalogueVoiceOf(options.voice_code, customVoices);
  const modelApplies = voice?.standard ?? true;
  const callbackProblem = callbackUrlProblem(options.callback_url);
  const urlProblem = callbackProblem && formatShown(intl, callbackProblem);
  const engines = useStudio((s) => s.voiceEngines);
  // A custom voice over a catalogue code speaks as that code; over a pack, the pack says.
  const engineInfo =
    custom?.base.kind === 'pack' || custom?.base.kind === 'kokoro_blend'
      ? undefined
      : engines[voice?.voice_code ?? options.voice_code];
  // The library answers for std-v1.6; std-v1 is always eSpeak.
  const engine = options.model_id === 'std-v1' ? 'espeak' : engineInfo?.engine;
  const hint = options.model_id === 'std-v1' ? null : defaultPackHint(engineInfo);
  // A natural engine by its code; every other is eSpeak (a name, not words to translate).
  const engineName = engine && engineKind(engine) === 'natural' ? engine : ESPEAK;

  return (
    <aside className="panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`}>
          <FormattedMessage id="controls.title" defaultMessage="Voice & output" />
        </h2>
      </div>

      <div className="field">
        <label htmlFor={`${id}-voice`}>
          <FormattedMessage id="controls.voice" defaultMessage="Voice" />
        </label>
        <VoiceSelect
          id={`${id}-voice`}
          priced
          described
          value={options.voice_code}
          onChange={(code) => setOption('voice_code', code)}
        />
        {custom && (
          <p
            className="hint"
            aria-label={intl.formatMessage({ id: 'controls.custom.label', defaultMessage: 'Your voice' })}
          >
            <FormattedMessage
              id="controls.custom.summary"
              defaultMessage="Your voice over {base} · speed ×{speed, number}, pitch ×{pitch, number}, volume {volume, number} %"
              values={{
                base: describeBase(custom.base),
                speed: custom.prosody.speed,
                pitch: custom.prosody.pitch,
                volume: custom.prosody.volume,
              }}
            />
          </p>
        )}
        {engine && (
          <p
            className="hint engine-line"
            aria-label={intl.formatMessage({
              id: 'controls.engine.label',
              defaultMessage: 'Engine of this voice',
            })}
          >
            <EngineBadge engine={engine} />{' '}
            {options.model_id !== 'std-v1' && options.model_id !== 'std-v1.6' ? (
              <FormattedMessage
                id="controls.engine.forModel"
                defaultMessage="{engine} (for std-v1.6)"
                values={{ engine: engineName }}
              />
            ) : (
              engineName
            )}
            {hint && (
              <>
                {' · '}
                <button type="button" className="link" onClick={() => setView('library')}>
                  {hint}
                </button>
              </>
            )}
          </p>
        )}
        <p className="hint">
          <button type="button" className="link" onClick={() => setView('voices')}>
            <FormattedMessage id="controls.browseVoices" defaultMessage="Browse and audition voices" />
          </button>
        </p>
      </div>

      <SliderField
        label={intl.formatMessage({ id: 'controls.speed', defaultMessage: 'Speed' })}
        value={options.speed_rate}
        min={RATE_MIN}
        max={RATE_MAX}
        step={0.1}
        format={oneDecimal}
        onChange={(v) => setOption('speed_rate', v)}
      />
      <SliderField
        label={intl.formatMessage({ id: 'controls.pitch', defaultMessage: 'Pitch' })}
        value={options.pitch_rate}
        min={RATE_MIN}
        max={RATE_MAX}
        step={0.1}
        format={oneDecimal}
        onChange={(v) => setOption('pitch_rate', v)}
      />
      <SliderField
        label={intl.formatMessage({ id: 'controls.volume', defaultMessage: 'Volume' })}
        value={options.volume}
        min={VOLUME_MIN}
        max={VOLUME_MAX}
        step={1}
        onChange={(v) => setOption('volume', v)}
      />
      <div className="row" style={{ marginTop: -4, marginBottom: 14 }}>
        <button type="button" onClick={resetProsody}>
          <FormattedMessage id="controls.resetProsody" defaultMessage="Reset speed, pitch and volume" />
        </button>
      </div>

      <div className="field">
        <label htmlFor={`${id}-model`}>
          <FormattedMessage id="controls.model" defaultMessage="Model" />
        </label>
        <select
          id={`${id}-model`}
          value={options.model_id}
          disabled={!modelApplies}
          aria-describedby={`${id}-model-hint`}
          onChange={(e) => setOption('model_id', e.target.value as ModelId)}
        >
          {MODEL_IDS.map((m) => (
            <option key={m} value={m}>
              {m === 'std-v1.5-turbo'
                ? intl.formatMessage(
                    { id: 'controls.model.halfPrice', defaultMessage: '{model} (half price)' },
                    { model: m },
                  )
                : m}
            </option>
          ))}
        </select>
        <p className="hint" id={`${id}-model-hint`}>
          {modelApplies ? (
            <FormattedMessage
              id="controls.model.turboHint"
              defaultMessage="Turbo halves the price of standard voices."
            />
          ) : (
            <FormattedMessage
              id="controls.model.notStandard"
              defaultMessage="This voice is not a standard voice: the model does not apply to it."
            />
          )}
        </p>
      </div>

      <div className="field">
        <span className="field-label" id={`${id}-format`}>
          <FormattedMessage id="controls.format" defaultMessage="Format" />
        </span>
        <div className="segmented" role="radiogroup" aria-labelledby={`${id}-format`}>
          {(['mp3', 'wav'] as const).map((f) => (
            <label key={f}>
              <input
                type="radio"
                name={`${id}-format`}
                value={f}
                checked={options.audio_type === f}
                onChange={() => setOption('audio_type', f)}
              />
              {f.toUpperCase()}
            </label>
          ))}
        </div>
      </div>

      <div className="field">
        <label htmlFor={`${id}-bitrate`}>
          <FormattedMessage id="controls.bitrate" defaultMessage="Bitrate" />
        </label>
        <select
          id={`${id}-bitrate`}
          value={options.bitrate}
          disabled={options.audio_type === 'wav'}
          onChange={(e) => setOption('bitrate', Number(e.target.value) as Bitrate)}
        >
          {BITRATES.map((b) => (
            <option key={b} value={b}>
              {intl.formatMessage(
                { id: 'controls.bitrate.kbps', defaultMessage: '{rate} kbps' },
                { rate: b },
              )}
            </option>
          ))}
        </select>
        {options.audio_type === 'wav' && (
          <p className="hint">
            <FormattedMessage
              id="controls.bitrate.wav"
              defaultMessage="WAV is uncompressed: bitrate applies to MP3 only."
            />
          </p>
        )}
      </div>

      <div className="field">
        <label className="check">
          <input
            type="checkbox"
            checked={options.generate_srt}
            onChange={(e) => setOption('generate_srt', e.target.checked)}
          />
          <FormattedMessage id="controls.subtitles" defaultMessage="Generate subtitles (SRT)" />
        </label>
      </div>

      <div className="field">
        <label htmlFor={`${id}-callback`}>
          <FormattedMessage id="controls.callback" defaultMessage="Callback URL (optional)" />
        </label>
        <input
          id={`${id}-callback`}
          type="url"
          // eslint-disable-next-line messages/no-words-in-jsx -- an example address, the same in every language
          placeholder="http://127.0.0.1:9000/hook"
          value={options.callback_url}
          aria-invalid={urlProblem !== null}
          aria-describedby={urlProblem ? `${id}-callback-error` : undefined}
          onChange={(e) => setOption('callback_url', e.target.value)}
        />
        {urlProblem && (
          <p className="error" id={`${id}-callback-error`}>
            {urlProblem}
          </p>
        )}
      </div>
    </aside>
  );
}
