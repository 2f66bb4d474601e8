import { defineMessage, defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { VoicePackInfo } from '../../../../electron/shared/voice-packs';
import type { VoiceInfo } from '../../../../electron/shared/voices';
import { AuditionButton } from '../../components/AuditionButton';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatNumber } from '../../lib/format';
import type { Audition } from '../../lib/useAudition';
import { useClient, useStudio } from '../../stores';
import { licenceText } from './licence-text';

const QUALITY = defineMessages<VoicePackInfo['quality']>({
  x_low: { id: 'voiceLibrary.quality.xLow', defaultMessage: 'extra low quality' },
  low: { id: 'voiceLibrary.quality.low', defaultMessage: 'low quality' },
  medium: { id: 'voiceLibrary.quality.medium', defaultMessage: 'medium quality' },
  high: { id: 'voiceLibrary.quality.high', defaultMessage: 'high quality' },
});

const STATE = defineMessages<VoicePackInfo['state']>({
  available: { id: 'voiceLibrary.state.available', defaultMessage: 'available' },
  installing: { id: 'voiceLibrary.state.installing', defaultMessage: 'installing' },
  installed: { id: 'voiceLibrary.state.installed', defaultMessage: 'installed' },
});

/** What the Voice library says of a multi-speaker pack's speakers' genders (VoicePackInfo.speaker_genders). */
const SPEAKER_GENDERS = defineMessages<Exclude<VoicePackInfo['speaker_genders'], 'single'>>({
  known: {
    id: 'voiceLibrary.genders.known',
    defaultMessage: "Speakers' genders: known from the dataset's metadata",
  },
  partial: {
    id: 'voiceLibrary.genders.partial',
    defaultMessage:
      "Speakers' genders: known for some speakers only; voices get speakers of their gender where known",
  },
  unknown: {
    id: 'voiceLibrary.genders.unknown',
    defaultMessage: "Speakers' genders: unknown; voices get speakers by index",
  },
});

const speedMessage = defineMessage<{ rtf: string; times: string; faster: string; ms: string }>({
  id: 'voiceLibrary.speed',
  defaultMessage:
    'RTF {rtf} ({faster, select, yes {{times}× faster than real time} other {slower than real time}}) · first audio {ms} ms',
});

/** A measured speed as the library shows it: "RTF 0.12 (8.3× faster than real time) · first audio 240 ms". */
export function formatSpeed(intl: IntlShape, speed: NonNullable<VoicePackInfo['speed']>): string {
  const faster = speed.rtf > 0 && speed.rtf < 1;
  return intl.formatMessage(speedMessage, {
    rtf: formatNumber(speed.rtf, { digits: speed.rtf < 0.1 ? 3 : 2 }),
    times: faster ? formatNumber(1 / speed.rtf, { digits: 1 }) : '',
    faster: faster ? 'yes' : 'no',
    ms: formatNumber(Math.round(speed.ttfa_ms)),
  });
}

/** A voice a pack speaks now and, for a Piper pack of several speakers, which of them. */
export interface PackSpeaker {
  voice: VoiceInfo;
  speaker: string | undefined;
}

/** A pack's facts: engine, quality, size, rate, speakers, licence, model card, speed here, genders, the voices it speaks. */
function PackFacts({ pack, speaks }: { pack: VoicePackInfo; speaks: readonly PackSpeaker[] }) {
  const intl = useIntl();
  return (
    <>
      <div className="small muted pack-meta">
        {[
          pack.family === 'kokoro' ? 'Kokoro' : 'Piper',
          intl.formatMessage(QUALITY[pack.quality]),
          formatBytes(pack.size),
          `${formatNumber(pack.sample_rate / 1000)} kHz`,
          intl.formatMessage(
            {
              id: 'voiceLibrary.speakers',
              defaultMessage: '{count, plural, one {# speaker} other {# speakers}}',
            },
            { count: pack.num_speakers },
          ),
        ].join(' · ')}
      </div>
      <div className="small licence" title={pack.licence_source ?? pack.licence}>
        <FormattedMessage
          id="voiceLibrary.licence"
          defaultMessage="Licence: {licence}"
          values={{ licence: licenceText(pack, intl) }}
        />
      </div>
      {pack.model_card_url && (
        <div className="small">
          <a
            href={pack.model_card_url}
            target="_blank"
            rel="noreferrer"
            aria-label={intl.formatMessage(
              { id: 'voiceLibrary.modelCardOf', defaultMessage: 'Model card of {id}' },
              { id: pack.id },
            )}
          >
            <FormattedMessage id="voiceLibrary.modelCard" defaultMessage="Model card" />
          </a>
        </div>
      )}
      {pack.state === 'installed' && (
        <div
          className="small muted pack-speed"
          aria-label={intl.formatMessage(
            { id: 'voiceLibrary.speedOf', defaultMessage: 'Speed of {id} on this computer' },
            { id: pack.id },
          )}
        >
          {pack.speed ? (
            <FormattedMessage
              id="voiceLibrary.speedHere"
              defaultMessage="Speed here: {speed}"
              values={{ speed: formatSpeed(intl, pack.speed) }}
            />
          ) : (
            <FormattedMessage
              id="voiceLibrary.speedUnknown"
              defaultMessage="Speed here: measured on its first use"
            />
          )}
        </div>
      )}
      {pack.num_speakers > 1 && pack.speaker_genders !== 'single' && (
        <div className="small muted speaker-genders">
          {intl.formatMessage(SPEAKER_GENDERS[pack.speaker_genders])}
        </div>
      )}
      {speaks.length > 0 && (
        <div className="small">
          <FormattedMessage
            id="voiceLibrary.speaks"
            defaultMessage="Speaks {voices}"
            values={{
              voices: speaks
                .map(({ voice, speaker }) => (speaker ? `${voice.name} (${speaker})` : voice.name))
                .join(', '),
            }}
          />
        </div>
      )}
    </>
  );
}

/** A pack's download progress while it installs (then its files' check). */
function PackProgress({ pack }: { pack: VoicePackInfo }) {
  const intl = useIntl();
  if (pack.state !== 'installing') return null;
  const percent = pack.progress?.total ? Math.min(100, (pack.progress.bytes / pack.progress.total) * 100) : 0;
  return (
    <div>
      <ProgressBar
        label={intl.formatMessage(
          { id: 'voiceLibrary.progress', defaultMessage: 'Download progress of {id}' },
          { id: pack.id },
        )}
        value={percent}
        minWidth={3}
      />
      <p className="hint small">
        {pack.progress?.phase === 'download' || !pack.progress
          ? intl.formatMessage(
              {
                id: 'voiceLibrary.downloading',
                defaultMessage: 'Downloading… {done} of {total}',
              },
              {
                done: formatBytes(pack.progress?.bytes ?? 0),
                total: formatBytes(pack.progress?.total ?? pack.size),
              },
            )
          : intl.formatMessage({
              id: 'voiceLibrary.checking',
              defaultMessage: 'Checking the files…',
            })}
      </p>
    </div>
  );
}

/** A pack's buttons: play its publisher's sample, download or cancel, play an installed voice, remove. */
function PackActions({
  pack,
  speaks,
  audition,
}: {
  pack: VoicePackInfo;
  speaks: readonly PackSpeaker[];
  audition: Audition;
}) {
  const intl = useIntl();
  const client = useClient();
  const install = useStudio((s) => s.installVoicePack);
  const cancel = useStudio((s) => s.cancelVoicePack);
  const remove = useStudio((s) => s.removeVoicePack);
  const first = speaks[0]?.voice;
  /** The publisher's sample of a pack (its first speaker), played through the local server. */
  const playSample = () =>
    audition.toggleSource(`sample:${pack.id}`, client.voicePackSampleUrl(pack.id, 0), () =>
      client.voicePackSample(pack.id, 0),
    );
  return (
    <div className="row">
      {pack.sample_speakers > 0 && (
        <SampleButton
          phase={audition.active === `sample:${pack.id}` ? audition.phase : null}
          id={pack.id}
          onClick={playSample}
        />
      )}
      <span className="spacer" />
      {pack.state === 'available' && (
        <button
          type="button"
          className="primary"
          aria-label={intl.formatMessage(
            { id: 'voiceLibrary.downloadPack', defaultMessage: 'Download {id}' },
            { id: pack.id },
          )}
          onClick={() => void install(pack.id)}
        >
          <FormattedMessage id="voiceLibrary.download" defaultMessage="Download" />
        </button>
      )}
      {pack.state === 'installing' && (
        <button
          type="button"
          aria-label={intl.formatMessage(
            { id: 'voiceLibrary.cancelDownload', defaultMessage: 'Cancel download of {id}' },
            { id: pack.id },
          )}
          onClick={() => void cancel(pack.id)}
        >
          <FormattedMessage id="common.cancel" defaultMessage="Cancel" />
        </button>
      )}
      {pack.state === 'installed' && first && (
        <AuditionButton
          audition={audition}
          id={pack.id}
          label={intl.formatMessage(
            { id: 'voiceLibrary.sampleOf', defaultMessage: 'a sample of {id} ({voice})' },
            { id: pack.id, voice: first.name },
          )}
          onToggle={() => audition.toggle(pack.id, first.voice_code)}
        />
      )}
      {pack.state === 'installed' && (
        <button
          type="button"
          className="danger"
          aria-label={intl.formatMessage(
            { id: 'voiceLibrary.removePack', defaultMessage: 'Remove {id}' },
            { id: pack.id },
          )}
          onClick={() => void remove(pack.id)}
        >
          <FormattedMessage id="common.remove" defaultMessage="Remove" />
        </button>
      )}
    </div>
  );
}

/** One voice pack's card in the library: its facts, progress, buttons and errors. */
export function PackCard({
  pack,
  speaks,
  audition,
  errorText,
}: {
  pack: VoicePackInfo;
  speaks: readonly PackSpeaker[];
  audition: Audition;
  /** The pack's failed action in words, or null. */
  errorText: string | null;
}) {
  const intl = useIntl();
  return (
    <li
      className="voice-card pack-card"
      aria-label={intl.formatMessage(
        { id: 'voiceLibrary.pack', defaultMessage: 'Voice pack {id}' },
        { id: pack.id },
      )}
    >
      <div className="row">
        <span className="name pack-name" title={pack.id}>
          {pack.id}
        </span>
        <span className="spacer" />
        <span className={`badge ${pack.state === 'installed' ? 'ok' : ''}`}>
          {intl.formatMessage(STATE[pack.state])}
        </span>
      </div>
      <PackFacts pack={pack} speaks={speaks} />
      <PackProgress pack={pack} />
      <PackActions pack={pack} speaks={speaks} audition={audition} />
      {errorText !== null && <p className="error">{errorText}</p>}
      {audition.error?.key === pack.id && <p className="error">{audition.error.message}</p>}
      {audition.error?.key === `sample:${pack.id}` && (
        <p className="error" role="alert">
          {audition.error.message}
        </p>
      )}
    </li>
  );
}

/** "Play sample" of a pack, "Loading sample…" until the sound starts (a click stops), then "Stop sample". */
function SampleButton({
  phase,
  id,
  onClick,
}: {
  phase: 'loading' | 'playing' | null;
  id: string;
  onClick: () => void;
}) {
  return (
    <button type="button" className="sample-button" aria-busy={phase === 'loading'} onClick={onClick}>
      {/* The name starts with what it shows (a click while loading stops it too). */}
      {phase === 'loading' ? (
        <FormattedMessage id="voiceLibrary.sample.loading" defaultMessage="Loading sample…" />
      ) : phase === 'playing' ? (
        <FormattedMessage id="voiceLibrary.sample.stop" defaultMessage="Stop sample" />
      ) : (
        <FormattedMessage id="voiceLibrary.sample.play" defaultMessage="Play sample" />
      )}
      <span className="visually-hidden">
        {' '}
        <FormattedMessage
          id="voiceLibrary.sample.of"
          defaultMessage="of {id}, as its publisher recorded it"
          values={{ id }}
        />
      </span>
    </button>
  );
}
