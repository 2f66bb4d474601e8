import { useEffect, useId, useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { VoicePackInfo } from '../../../../electron/shared/voice-packs';
import { VOICES } from '../../../../electron/shared/voices';
import { useAudition } from '../../lib/useAudition';
import { useStudio } from '../../stores';
import { languageName } from '../../lib/intl-text';
import { PackCard, type PackSpeaker } from './PackCard';

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
  const importPack = useStudio((s) => s.importVoicePack);
  const id = useId();
  const intl = useIntl();
  const [importing, setImporting] = useState(false);
  const audition = useAudition();

  useEffect(() => {
    void load();
  }, [load]);

  /** The voices a pack speaks now (their engine label names the pack), with their speakers. */
  const speakers = (pack: VoicePackInfo): PackSpeaker[] =>
    VOICES.filter((v) => engines[v.voice_code]?.engine.startsWith(`${pack.family}:${pack.id}#`)).map(
      (voice) => {
        const index = Number(engines[voice.voice_code]?.engine.split('#')[1]);
        const multi = pack.family === 'piper' && pack.num_speakers > 1;
        return { voice, speaker: multi ? pack.speaker_labels[index] : undefined };
      },
    );

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
              {g.packs.map((pack) => (
                <PackCard
                  key={pack.id}
                  pack={pack}
                  speaks={speakers(pack)}
                  audition={audition}
                  errorText={error?.id === pack.id ? errorText(error.message) : null}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  );
}
