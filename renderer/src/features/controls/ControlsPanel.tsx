import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { RATE_MAX, RATE_MIN, VOLUME_MAX, VOLUME_MIN } from '../../../../electron/shared/options';
import { useStudio } from '../../stores';
import { ModelField } from './ModelField';
import { OutputFields } from './OutputFields';
import { SliderField } from './SliderField';
import { VoiceField } from './VoiceField';

const oneDecimal = (v: number) => v.toFixed(1);

/** Voice, prosody and output options for the next request. */
export function ControlsPanel() {
  const options = useStudio((s) => s.options);
  const setOption = useStudio((s) => s.setOption);
  const resetProsody = useStudio((s) => s.resetProsody);
  const id = useId();
  const intl = useIntl();

  return (
    <aside className="panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`}>
          <FormattedMessage id="controls.title" defaultMessage="Voice & output" />
        </h2>
      </div>

      <VoiceField id={id} />

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

      <ModelField id={id} />

      <OutputFields id={id} />
    </aside>
  );
}
