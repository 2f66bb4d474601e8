import { FormattedMessage, useIntl } from 'react-intl';
import { defaultPackHint, EngineBadge } from '../../components/EngineBadge';
import { VoiceSelect } from '../../components/VoiceSelect';
import { catalogueVoiceOf, describeBase } from '../../lib/voice-codes';
import { engineKind } from '../../stores/voice-packs-slice';
import { useStudio } from '../../stores';

const ESPEAK = 'eSpeak';

/** The voice of the next request: its picker, a custom voice's summary and the engine that speaks it. */
export function VoiceField({ id }: { id: string }) {
  const intl = useIntl();
  const options = useStudio((s) => s.options);
  const setOption = useStudio((s) => s.setOption);
  const setView = useStudio((s) => s.setView);
  const customVoices = useStudio((s) => s.customVoices);
  const custom = customVoices.find((v) => v.code === options.voice_code);
  const voice = catalogueVoiceOf(options.voice_code, customVoices);
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
  );
}
