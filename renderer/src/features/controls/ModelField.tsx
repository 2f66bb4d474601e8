import { FormattedMessage, useIntl } from 'react-intl';
import { MODEL_IDS, type ModelId } from '../../../../electron/shared/options';
import { catalogueVoiceOf } from '../../lib/voice-codes';
import { useStudio } from '../../stores';

/** The model of the next request; a voice that is not standard leaves it out. */
export function ModelField({ id }: { id: string }) {
  const intl = useIntl();
  const options = useStudio((s) => s.options);
  const setOption = useStudio((s) => s.setOption);
  const customVoices = useStudio((s) => s.customVoices);
  const modelApplies = catalogueVoiceOf(options.voice_code, customVoices)?.standard ?? true;
  return (
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
  );
}
