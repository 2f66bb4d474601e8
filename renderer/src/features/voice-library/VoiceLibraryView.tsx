import { useEffect, useId, useState } from 'react';
import type { VoicePackInfo } from '../../../../electron/shared/voice-packs';
import { VOICES } from '../../../../electron/shared/voices';
import { AuditionButton } from '../../components/AuditionButton';
import { useAudition } from '../../lib/useAudition';
import { useClient, useStudio } from '../../stores';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatNumber } from '../../lib/format';

const LANGUAGE_NAMES = new Map<string, string>(VOICES.map((v) => [v.language, v.language_name]));
const MULTILINGUAL = 'Several languages';

const QUALITY: Record<VoicePackInfo['quality'], string> = {
  x_low: 'extra low',
  low: 'low',
  medium: 'medium',
  high: 'high',
};

/** A measured speed as the library shows it: "RTF 0.12 (8.3× faster than real time) · first audio 240 ms". */
export function formatSpeed(speed: NonNullable<VoicePackInfo['speed']>): string {
  const rtf = formatNumber(speed.rtf, { digits: speed.rtf < 0.1 ? 3 : 2 });
  const pace =
    speed.rtf > 0 && speed.rtf < 1
      ? `${formatNumber(1 / speed.rtf, { digits: 1 })}× faster than real time`
      : 'slower than real time';
  return `RTF ${rtf} (${pace}) · first audio ${formatNumber(Math.round(speed.ttfa_ms))} ms`;
}

/** Packs grouped by the language they speak (packs of several languages together), in list order. */
export function groupPacks(packs: readonly VoicePackInfo[]): { language: string; packs: VoicePackInfo[] }[] {
  const groups = new Map<string, VoicePackInfo[]>();
  for (const pack of packs) {
    const language =
      pack.languages.length === 1
        ? (LANGUAGE_NAMES.get(pack.languages[0]!) ?? pack.languages[0]!)
        : MULTILINGUAL;
    groups.set(language, [...(groups.get(language) ?? []), pack]);
  }
  return [...groups.entries()]
    .map(([language, list]) => ({ language, packs: list }))
    .sort((a, b) => a.language.localeCompare(b.language));
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

  /** What the Voice library says of a multi-speaker pack's speakers' genders (VoicePackInfo.speaker_genders). */
  const SPEAKER_GENDERS: Record<VoicePackInfo['speaker_genders'], string> = {
    single: '',
    known: "Speakers' genders: known from the dataset's metadata",
    partial:
      "Speakers' genders: known for some speakers only; voices get speakers of their gender where known",
    unknown: "Speakers' genders: unknown; voices get speakers by index",
  };

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
  const groups = groupPacks(packs);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Voice library</h1>
          <p>
            Natural-sounding neural voices (Piper, Kokoro) run on this computer once downloaded. Voices
            without one use eSpeak, the basic engine. {installed.length} installed.
          </p>
        </div>
        <div className="row">
          <label className="button" htmlFor={`${id}-import`} aria-disabled={importing}>
            {importing ? 'Importing…' : 'Import from disk…'}
          </label>
          <input
            id={`${id}-import`}
            className="visually-hidden"
            type="file"
            accept=".zip,.tar.gz,.tgz,application/zip,application/gzip"
            aria-label="Import a voice pack (.zip or .tar.gz)"
            disabled={importing}
            onChange={(e) => void onFile(e)}
          />
        </div>
      </div>
      {error && error.id === null && <p className="error">{error.message}</p>}
      <div className="panel">
        {!loaded && <p className="muted">Loading the voice library…</p>}
        {loaded && packs.length === 0 && <p className="muted">The catalogue is empty.</p>}
        {groups.map((g) => (
          <section key={g.language} className="voice-group" aria-label={`${g.language} voice packs`}>
            <h2 className="group-heading">{g.language}</h2>
            <ul className="voice-list pack-list">
              {g.packs.map((pack) => {
                const speaks = speakers(pack);
                const percent = pack.progress?.total
                  ? Math.min(100, (pack.progress.bytes / pack.progress.total) * 100)
                  : 0;
                return (
                  <li key={pack.id} className="voice-card pack-card" aria-label={`Voice pack ${pack.id}`}>
                    <div className="row">
                      <span className="name pack-name" title={pack.id}>
                        {pack.id}
                      </span>
                      <span className="spacer" />
                      <span className={`badge ${pack.state === 'installed' ? 'ok' : ''}`}>{pack.state}</span>
                    </div>
                    <div className="small muted pack-meta">
                      {[
                        pack.family === 'kokoro' ? 'Kokoro' : 'Piper',
                        `${QUALITY[pack.quality]} quality`,
                        formatBytes(pack.size),
                        `${formatNumber(pack.sample_rate / 1000)} kHz`,
                        `${pack.num_speakers} ${pack.num_speakers === 1 ? 'speaker' : 'speakers'}`,
                      ].join(' · ')}
                    </div>
                    <div className="small licence" title={pack.licence_source ?? pack.licence}>
                      Licence: {pack.licence}
                    </div>
                    {pack.model_card_url && (
                      <div className="small">
                        <a
                          href={pack.model_card_url}
                          target="_blank"
                          rel="noreferrer"
                          aria-label={`Model card of ${pack.id}`}
                        >
                          Model card
                        </a>
                      </div>
                    )}
                    {pack.state === 'installed' && (
                      <div
                        className="small muted pack-speed"
                        aria-label={`Speed of ${pack.id} on this computer`}
                      >
                        {pack.speed
                          ? `Speed here: ${formatSpeed(pack.speed)}`
                          : 'Speed here: measured on its first use'}
                      </div>
                    )}
                    {pack.num_speakers > 1 && (
                      <div className="small muted speaker-genders">
                        {SPEAKER_GENDERS[pack.speaker_genders]}
                      </div>
                    )}
                    {speaks.length > 0 && (
                      <div className="small">
                        Speaks{' '}
                        {speaks
                          .map((v) => {
                            const index = Number(engines[v.voice_code]?.engine.split('#')[1]);
                            const speaker =
                              pack.family === 'piper' && pack.num_speakers > 1
                                ? pack.speaker_labels[index]
                                : undefined;
                            return speaker ? `${v.name} (${speaker})` : v.name;
                          })
                          .join(', ')}
                      </div>
                    )}
                    {pack.state === 'installing' && (
                      <div>
                        <ProgressBar label={`Download progress of ${pack.id}`} value={percent} minWidth={3} />
                        <p className="hint small">
                          {pack.progress?.phase === 'download' || !pack.progress
                            ? `Downloading… ${formatBytes(pack.progress?.bytes ?? 0)} of ${formatBytes(pack.progress?.total ?? pack.size)}`
                            : 'Checking the files…'}
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
                          aria-label={`Download ${pack.id}`}
                          onClick={() => void install(pack.id)}
                        >
                          Download
                        </button>
                      )}
                      {pack.state === 'installing' && (
                        <button
                          type="button"
                          aria-label={`Cancel download of ${pack.id}`}
                          onClick={() => void cancel(pack.id)}
                        >
                          Cancel
                        </button>
                      )}
                      {pack.state === 'installed' && speaks[0] && (
                        <AuditionButton
                          audition={audition}
                          id={pack.id}
                          label={`a sample of ${pack.id} (${speaks[0].name})`}
                          onToggle={() => audition.toggle(pack.id, speaks[0]!.voice_code)}
                        />
                      )}
                      {pack.state === 'installed' && (
                        <button
                          type="button"
                          className="danger"
                          aria-label={`Remove ${pack.id}`}
                          onClick={() => void remove(pack.id)}
                        >
                          Remove
                        </button>
                      )}
                    </div>
                    {error?.id === pack.id && <p className="error">{error.message}</p>}
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
      {phase === 'loading' ? 'Loading sample…' : phase === 'playing' ? 'Stop sample' : 'Play sample'}
      <span className="visually-hidden"> of {id}, as its publisher recorded it</span>
    </button>
  );
}
