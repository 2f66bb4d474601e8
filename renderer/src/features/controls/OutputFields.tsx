import { FormattedMessage, useIntl } from 'react-intl';
import { BITRATES, type Bitrate } from '../../../../electron/shared/options';
import { useStudio } from '../../stores';
import { callbackUrlProblem } from '../../stores/options-slice';
import { formatShown } from '../../lib/intl-text';

/** The output of the next request: format, bitrate, subtitles, and the callback address. */
export function OutputFields({ id }: { id: string }) {
  const intl = useIntl();
  const options = useStudio((s) => s.options);
  const setOption = useStudio((s) => s.setOption);
  const callbackProblem = callbackUrlProblem(options.callback_url);
  const urlProblem = callbackProblem && formatShown(intl, callbackProblem);
  return (
    <>
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
    </>
  );
}
