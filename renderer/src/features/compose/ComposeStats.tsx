import { FormattedMessage, useIntl } from 'react-intl';
import { estimateCredits, estimateSeconds } from '../../lib/estimate';
import { formatCredits, formatDuration, formatNumber } from '../../lib/format';
import { catalogueVoiceOf } from '../../lib/voice-codes';
import { voicePrice } from '../../lib/voice-price';
import { useStudio } from '../../stores';

/** The draft's characters, estimated credits (the voice's price, turbo's half) and duration. */
export function ComposeStats({ characters }: { characters: number }) {
  const intl = useIntl();
  const options = useStudio((s) => s.options);
  const customVoices = useStudio((s) => s.customVoices);
  const voice = catalogueVoiceOf(options.voice_code, customVoices);
  const credits = voice ? estimateCredits(characters, voice, options.model_id) : 0;
  const seconds = estimateSeconds(characters, options.speed_rate);
  const turbo = voice?.standard && options.model_id === 'std-v1.5-turbo';
  return (
    <div className="stats" aria-live="polite">
      <div className="stat">
        <b>{formatNumber(characters)}</b>
        <span>
          <FormattedMessage
            id="compose.stats.characters"
            defaultMessage="{count, plural, one {character} other {characters}}"
            values={{ count: characters }}
          />
        </span>
      </div>
      <div className="stat">
        <b>{formatCredits(credits)}</b>
        <span>
          <FormattedMessage id="compose.stats.credits" defaultMessage="estimated credits" />
          {voice && (
            <>
              {' · '}
              {voicePrice(voice.price, intl)}
            </>
          )}
          {turbo && (
            <>
              {' · '}
              <FormattedMessage id="compose.stats.turbo" defaultMessage="turbo ½" />
            </>
          )}
        </span>
      </div>
      <div className="stat">
        <b>{formatDuration(seconds)}</b>
        <span>
          <FormattedMessage id="compose.stats.duration" defaultMessage="estimated duration" />
        </span>
      </div>
      <div className="stat">
        <span className="small">
          <FormattedMessage id="compose.stats.saved" defaultMessage="Draft saved in this browser" />
        </span>
      </div>
    </div>
  );
}
