import { useEffect, useId, useState } from 'react';
import { defineMessage, defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { VoicePackInfo } from '../../../../electron/shared/voice-packs';
import { VOICES } from '../../../../electron/shared/voices';
import { AuditionButton } from '../../components/AuditionButton';
import { useAudition } from '../../lib/useAudition';
import { useClient, useStudio } from '../../stores';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatNumber } from '../../lib/format';
import { languageName } from '../../lib/intl-text';
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

/** Packs grouped by the language they speak (packs of several languages together), in list order. */
export function groupPacks(
  intl: IntlShape,
  packs: readonly VoicePackInfo[],
): { language: string; packs: VoicePackInfo[] }[] {
  const multilingual = intl.formatMessage({
    id: 'voiceLibrary.multilingual',
    defaultMessage: 'Several languages',
  });
  const groups = new Map<string, VoicePackInfo[]>();
  for (const pack of packs) {
    const language = pack.languages.length === 1 ? languageName(pack.languages[0]!, intl) : multilingual;
    groups.set(language, [...(groups.get(language) ?? []), pack]);
  }
  return [...groups.entries()]
    .map(([language, list]) => ({ language, packs: list }))
    .sort((a, b) => a.language.localeCompare(b.language, intl.locale));
}

/** Installed and downloadable neural voice packs: download with progress, cancel, import, remove, play. */
export function VoiceLibraryView() {
  const packs = useStudio((s) => s.voicePacks);
  const engines = useStudio((s) => s.voiceEngines);
  const loaded = useStudio((s) => s.voicePacksLoaded);
  const error = useStudio((s) => s.voicePackError);
  const load = useStudio((s) => s.loadVoicePacks);
  const install = useStudio((s) => s.installVoicePack);
  const cancel = useStudio((s) => s.cancelVoicePack);
  const remove = useStudio((s) => s.removeVoicePack);
  const importPack = useStudio((s) => s.importVoicePack);
  const id = useId();
  const intl = useIntl();
  const [importing, setImporting] = useState(false);
  const audition = useAudition();
  const client = useClient();
  /** The publisher's sample of a pack (its first speaker), played through the local server. */
  const playSample = (pack: VoicePackInfo) =>
    audition.toggleSource(`sample:${pack.id}`, client.voicePackSampleUrl(pack.id, 0), () =>
      client.voicePackSample(pack.id, 0),
    );

  useEffect(() => {
    void load();
  }, [load]);

  /** Voice codes a pack speaks now (their engine label names the pack). */
  const speakers = (pack: VoicePackInfo) =>
    VOICES.filter((v) => engines[v.voice_code]?.engine.startsWith(`${pack.family}:${pack.id}#`));

  const onFile = async (e: { target: HTMLInputElement }) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setImporting(true);
    try {
      await importPack(file, file.name);
    } finally {
      setImporting(false);
    }
  };

  const installed = packs.filter((p) => p.state === 'installed');
  const groups = groupPacks(intl, packs);
  const errorText = (message: string | null) =>
    message ??
    intl.formatMessage({ id: 'voiceLibrary.installFailed', defaultMessage: 'The install failed.' });

  return (
    <>
      <div className="page-head">
        <div>
          <h1>
            <FormattedMessage id="voiceLibrary.title" defaultMessage="Voice library" />
          </h1>
          <p>
            <FormattedMessage
              id="voiceLibrary.intro"
              defaultMessage="Natural-sounding neural voices (Piper, Kokoro) run on this computer once downloaded. Voices without one use eSpeak, the basic engine. {count, number} installed."
              values={{ count: installed.length }}
            />
          </p>
        </div>
        <div className="row">
          <label className="button" htmlFor={`${id}-import`} aria-disabled={importing}>
            {importing ? (
              <FormattedMessage id="voiceLibrary.importing" defaultMessage="Importing…" />
            ) : (
              <FormattedMessage id="voiceLibrary.import" defaultMessage="Import from disk…" />
            )}
          </label>
          <input
            id={`${id}-import`}
            className="visually-hidden"
            type="file"
            accept=".zip,.tar.gz,.tgz,application/zip,application/gzip"
            aria-label={intl.formatMessage({
              id: 'voiceLibrary.importFile',
              defaultMessage: 'Import from disk: a voice pack (.zip or .tar.gz)',
            })}
            disabled={importing}
            onChange={(e) => void onFile(e)}
          />
        </div>
      </div>
      {error && error.id === null && <p className="error">{errorText(error.message)}</p>}
      <div className="panel">
        {!loaded && (
          <p className="muted">
            <FormattedMessage id="voiceLibrary.loading" defaultMessage="Loading the voice library…" />
          </p>
        )}
        {loaded && packs.length === 0 && (
          <p className="muted">
            <FormattedMessage id="voiceLibrary.empty" defaultMessage="The catalogue is empty." />
          </p>
        )}
        {groups.map((g) => (
          <section
            key={g.language}
            className="voice-group"
            aria-label={intl.formatMessage(
              { id: 'voiceLibrary.group', defaultMessage: '{language} voice packs' },
              { language: g.language },
            )}
          >
            <h2 className="group-heading">{g.language}</h2>
            <ul className="voice-list pack-list">
              {g.packs.map((pack) => {
                const speaks = speakers(pack);
                const percent = pack.progress?.total
                  ? Math.min(100, (pack.progress.bytes / pack.progress.total) * 100)
                  : 0;
                return (
                  <li
                    key={pack.id}
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
                              .map((v) => {
                                const index = Number(engines[v.voice_code]?.engine.split('#')[1]);
                                const speaker =
                                  pack.family === 'piper' && pack.num_speakers > 1
                                    ? pack.speaker_labels[index]
                                    : undefined;
                                return speaker ? `${v.name} (${speaker})` : v.name;
                              })
                              .join(', '),
                          }}
                        />
                      </div>
                    )}
                    {pack.state === 'installing' && (
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
                    )}
                    <div className="row">
                      {pack.sample_speakers > 0 && (
                        <SampleButton
                          phase={audition.active === `sample:${pack.id}` ? audition.phase : null}
                          id={pack.id}
                          onClick={() => playSample(pack)}
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
                      {pack.state === 'installed' && speaks[0] && (
                        <AuditionButton
                          audition={audition}
                          id={pack.id}
                          label={intl.formatMessage(
                            { id: 'voiceLibrary.sampleOf', defaultMessage: 'a sample of {id} ({voice})' },
                            { id: pack.id, voice: speaks[0].name },
                          )}
                          onToggle={() => audition.toggle(pack.id, speaks[0]!.voice_code)}
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
                    {error?.id === pack.id && <p className="error">{errorText(error.message)}</p>}
                    {audition.error?.key === pack.id && <p className="error">{audition.error.message}</p>}
                    {audition.error?.key === `sample:${pack.id}` && (
                      <p className="error" role="alert">
                        {audition.error.message}
                      </p>
                    )}
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>
    </>
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
