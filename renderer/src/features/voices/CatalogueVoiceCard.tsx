import { FormattedMessage, useIntl } from 'react-intl';
import type { Voice } from '../../../../electron/shared/api';
import { CopyButton } from '../../components/CopyButton';
import { defaultPackHint, EngineBadge } from '../../components/EngineBadge';
import { AuditionButton } from '../../components/AuditionButton';
import type { useAudition } from '../../lib/useAudition';
import { useStudio } from '../../stores';
import { CARD_LABELS, USE_LABELS } from './messages';

type Props = {
  voice: Voice;
  audition: ReturnType<typeof useAudition>;
  accentLabel: (accent: string) => string;
  genderLabel: (gender: string) => string;
};

/** One catalogue voice: its badges, code to copy, price, audition and Use. */
export function CatalogueVoiceCard({ voice, audition, accentLabel, genderLabel }: Props) {
  const intl = useIntl();
  const selected = useStudio((s) => s.options.voice_code);
  const options = useStudio((s) => s.options);
  const setOption = useStudio((s) => s.setOption);
  const setView = useStudio((s) => s.setView);
  const engines = useStudio((s) => s.voiceEngines);
  return (
    <li className={`voice-card${voice.voice_code === selected ? ' selected' : ''}`}>
      <div className="row">
        <span className="name">{voice.name}</span>
        <EngineBadge engine={engines[voice.voice_code]?.engine} />
        <span className="badge">{genderLabel(voice.gender)}</span>
        <span className="badge">{accentLabel(voice.accent)}</span>
        {voice.accent_approximated && (
          <span
            className="badge warn"
            title={intl.formatMessage({
              id: 'voices.accentApproximated.title',
              defaultMessage: 'The engine has no such accent; this voice approximates it.',
            })}
          >
            <FormattedMessage id="voices.accentApproximated" defaultMessage="accent approximated" />
          </span>
        )}
      </div>
      <div className="copy-row">
        <code>{voice.voice_code}</code>
        <CopyButton
          text={voice.voice_code}
          label={intl.formatMessage(CARD_LABELS.copyCode, { code: voice.voice_code })}
        />
      </div>
      {defaultPackHint(engines[voice.voice_code]) && (
        <button type="button" className="link small engine-hint" onClick={() => setView('library')}>
          {defaultPackHint(engines[voice.voice_code])}
        </button>
      )}
      <div className="row">
        <span
          className="small muted price"
          title={
            voice.standard
              ? intl.formatMessage({
                  id: 'voices.price.standard',
                  defaultMessage: 'Standard voice: the model choice applies.',
                })
              : intl.formatMessage({
                  id: 'voices.price.notStandard',
                  defaultMessage: 'Not a standard voice: the model choice does not apply.',
                })
          }
        >
          <FormattedMessage
            id="voices.price"
            defaultMessage="{price} credits / 1k chars"
            values={{ price: String(voice.price) }}
          />
        </span>
        <span className="spacer" />
        <AuditionButton
          audition={audition}
          id={voice.voice_code}
          label={intl.formatMessage(CARD_LABELS.audition, { name: voice.name, code: voice.voice_code })}
          onToggle={() =>
            audition.toggle(voice.voice_code, voice.voice_code, {
              speed_rate: options.speed_rate,
              pitch_rate: options.pitch_rate,
              volume: options.volume,
            })
          }
        />
        <button
          type="button"
          className={voice.voice_code === selected ? '' : 'primary'}
          aria-label={intl.formatMessage(
            voice.voice_code === selected ? CARD_LABELS.inUseLabel : CARD_LABELS.useLabel,
            { name: voice.name, code: voice.voice_code },
          )}
          onClick={() => {
            setOption('voice_code', voice.voice_code);
            setView('studio');
          }}
        >
          {intl.formatMessage(voice.voice_code === selected ? USE_LABELS.inUse : USE_LABELS.use)}
        </button>
      </div>
      {audition.error?.key === voice.voice_code && <p className="error">{audition.error.message}</p>}
    </li>
  );
}
