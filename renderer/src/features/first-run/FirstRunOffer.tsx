import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { FirstRunVoiceOffer } from '../../../../electron/shared/settings';
import type { VoicePackInfo } from '../../../../electron/shared/voice-packs';
import type { LanguageCode } from '../../../../electron/shared/voices';
import { errorMessage } from '../../lib/api-client';
import { useClient, useStudio } from '../../stores';
import { formatBytes } from '../../lib/format';
import { languageName } from '../../lib/intl-text';
import {
  OFFER_LANGUAGES,
  defaultLanguages,
  downloadBytes,
  offeredPacks,
  packForLanguage,
  sourceLabel,
} from './voice-offer';
import { ProgressBar } from '../../components/ProgressBar';
import { BusyButton } from '../../components/BusyButton';
import { refocus } from '../../lib/focus-return';
import { licenceText } from '../voice-library/licence-text';

const LANGUAGE_NAME = new Map(OFFER_LANGUAGES.map((l) => [l.code, l.name]));

const m = defineMessages<{
  notSaved: { error: string };
  packLabel: { id: string };
  packSummary: { family: string; quality: string; languages: string };
  total: { count: number; size: string };
  without: { languages: string };
  progressLabel: { id: string };
  downloadingBytes: { done: string; total: string };
}>({
  notSaved: { id: 'firstRun.notSaved', defaultMessage: 'Your answer was not saved: {error}' },
  packLabel: { id: 'firstRun.packLabel', defaultMessage: 'Voice pack {id}' },
  packSummary: {
    id: 'firstRun.packSummary',
    defaultMessage:
      '{family}, {quality, select, x_low {x low} low {low} medium {medium} high {high} other {{quality}}} quality · for {languages}',
  },
  total: {
    id: 'firstRun.total',
    defaultMessage: '{count, plural, one {# voice pack} other {# voice packs}}, {size} in all.',
  },
  without: {
    id: 'firstRun.without',
    defaultMessage: '{languages}: no natural voice exists yet; eSpeak speaks it.',
  },
  progressLabel: { id: 'firstRun.progressLabel', defaultMessage: 'Download progress of {id}' },
  downloadingBytes: { id: 'firstRun.downloadingBytes', defaultMessage: 'Downloading… {done} of {total}' },
});

/** The chosen languages' names, in the interface's language: "English, French". */
function namesOf(codes: readonly LanguageCode[], intl: IntlShape): string {
  return codes.map((c) => languageName(c, intl, LANGUAGE_NAME.get(c))).join(', ');
}

/** `languages` of the browser, or its one `language` (the desktop window's is the system's). */
function preferredLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/** "Piper, medium quality · for Vietnamese" */
function packSummary(pack: VoicePackInfo, languages: readonly LanguageCode[], intl: IntlShape): string {
  return intl.formatMessage(m.packSummary, {
    family: pack.family === 'kokoro' ? 'Kokoro' : 'Piper',
    quality: pack.quality,
    languages: namesOf(languages, intl),
  });
}

/** `auto`: the offer shows while it is due; then downloading, or closed by the user. */
type Stage = 'auto' | 'downloading' | 'closed';

/**
 * The first-run offer of natural voices: shown once, when the server's settings say it was
 * never answered (`first_run_voice_offer: pending`) and no natural voice is installed. The user
 * ticks languages (theirs and Vietnamese at first) and sees each pack's size, licence and
 * source; Download records the answer and starts the installs (the Voice library's, with its
 * progress events), Skip or Escape records the skip. While downloading the dialog shows each
 * pack's progress and may be closed: the downloads go on, the Voice library shows them.
 */
export function FirstRunOffer() {
  const intl = useIntl();
  const client = useClient();
  const packs = useStudio((s) => s.voicePacks);
  const engines = useStudio((s) => s.voiceEngines);
  const loaded = useStudio((s) => s.voicePacksLoaded);
  const install = useStudio((s) => s.installVoicePack);
  const libraryError = useStudio((s) => s.voicePackError);
  const setView = useStudio((s) => s.setView);
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();

  /** The stored answer; `unavailable` when the server keeps no settings (then nothing is offered). */
  const [answer, setAnswer] = useState<FirstRunVoiceOffer | 'loading' | 'unavailable'>('loading');
  const [stage, setStage] = useState<Stage>('auto');
  const [chosen, setChosen] = useState<LanguageCode[]>(() => defaultLanguages(preferredLanguages()));
  /** Packs this offer started, and those whose install request came back (a later `available` = failed). */
  const [started, setStarted] = useState<string[]>([]);
  const [begun, setBegun] = useState<ReadonlySet<string>>(new Set());
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    client.serverSettings().then(
      (s) => live && setAnswer(s.first_run_voice_offer),
      () => {
        if (!live) return;
        setAnswer('unavailable');
      },
    );
    return () => {
      live = false;
    };
  }, [client]);

  // Offered once: never answered, and no natural voice installed or on its way.
  const offering =
    answer === 'pending' && loaded && packs.length > 0 && packs.every((p) => p.state === 'available');
  const shown: 'closed' | 'choose' | 'downloading' =
    stage === 'auto' ? (offering ? 'choose' : 'closed') : stage;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (shown !== 'closed' && !element.open) element.showModal();
    else if (shown === 'closed' && element.open) {
      element.close();
      // Nothing opened it (it came by itself): the focus goes to the view, not the page's body.
      refocus(document.getElementById('main'));
    } else if (shown === 'downloading') {
      // Its buttons changed under the focus: the first of the new ones takes it.
      if (!element.contains(document.activeElement))
        element.querySelector<HTMLElement>('button.primary')?.focus();
    }
  }, [shown]);

  const { offered, without } = useMemo(() => offeredPacks(chosen, packs, engines), [chosen, packs, engines]);

  const record = async (value: FirstRunVoiceOffer): Promise<boolean> => {
    setSaving(true);
    setProblem(null);
    try {
      await client.updateServerSettings({ first_run_voice_offer: value });
      setAnswer(value);
      return true;
    } catch (e) {
      setProblem(intl.formatMessage(m.notSaved, { error: errorMessage(e) }));
      return false;
    } finally {
      setSaving(false);
    }
  };

  const skip = async () => {
    if (await record('skipped')) setStage('closed');
  };

  const download = async () => {
    const ids = offered.filter((o) => o.pack.state !== 'installed').map((o) => o.pack.id);
    if (ids.length === 0 || !(await record('accepted'))) return;
    setStarted(ids);
    setStage('downloading');
    for (const pack of ids) {
      await install(pack);
      // The request came back: from now on the pack is either running or has ended.
      setBegun((seen) => new Set([...seen, pack]));
    }
  };

  const toggle = (code: LanguageCode, on: boolean) =>
    setChosen((list) => (on ? [...list, code] : list.filter((c) => c !== code)));

  const progressOf = (packId: string) => {
    const pack = packs.find((p) => p.id === packId);
    if (!pack) return { state: 'failed' as const, percent: 0, pack };
    if (pack.state === 'installed') return { state: 'installed' as const, percent: 100, pack };
    if (pack.state === 'installing') {
      const total = pack.progress?.total ?? pack.size;
      const percent = total > 0 ? Math.min(100, ((pack.progress?.bytes ?? 0) / total) * 100) : 0;
      return { state: 'installing' as const, percent, pack };
    }
    return { state: begun.has(packId) ? ('failed' as const) : ('starting' as const), percent: 0, pack };
  };
  const states = started.map((p) => progressOf(p).state);
  const finished = states.every((s) => s === 'installed' || s === 'failed');
  const anyFailed = states.includes('failed');
  /** The failure the library reported for one of these packs (the offline sentence, when it is that). */
  const failure = libraryError && started.includes(libraryError.id ?? '') ? libraryError.message : null;
  const bytes = downloadBytes(offered);

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog first-run-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-intro`}
      onCancel={(e) => {
        // Escape: skip while choosing; while downloading, close (the downloads go on).
        e.preventDefault();
        if (shown === 'choose') void skip();
        else setStage('closed');
      }}
    >
      {shown === 'choose' && (
        <>
          <h2 id={`${id}-title`}>
            <FormattedMessage id="firstRun.title" defaultMessage="Natural voices for your languages" />
          </h2>
          <p id={`${id}-intro`}>
            <FormattedMessage
              id="firstRun.intro"
              defaultMessage="Until a natural voice is installed, Narration Studio speaks with eSpeak, a basic engine. Pick the languages you write in: their voices download in the background while you work, and run on this computer."
            />
          </p>
          <fieldset className="first-run-languages">
            <legend>
              <FormattedMessage id="firstRun.languages" defaultMessage="Languages you write in" />
            </legend>
            <ul>
              {OFFER_LANGUAGES.map((language) => {
                const speaks = packForLanguage(language.code, packs, engines) !== undefined;
                const inputId = `${id}-${language.code}`;
                return (
                  <li key={language.code}>
                    <input
                      id={inputId}
                      type="checkbox"
                      checked={speaks && chosen.includes(language.code)}
                      disabled={!speaks}
                      {...(speaks ? {} : { 'aria-describedby': `${inputId}-none` })}
                      onChange={(e) => toggle(language.code, e.target.checked)}
                    />
                    <label htmlFor={inputId}>{languageName(language.code, intl, language.name)}</label>
                    {!speaks && (
                      <span id={`${inputId}-none`} className="small muted">
                        <FormattedMessage
                          id="firstRun.noNaturalVoice"
                          defaultMessage="no natural voice yet"
                        />
                      </span>
                    )}
                  </li>
                );
              })}
            </ul>
          </fieldset>
          <h3 className="first-run-subhead" id={`${id}-packs`}>
            <FormattedMessage id="firstRun.toDownload" defaultMessage="To download" />
          </h3>
          {offered.length === 0 ? (
            <p className="muted small">
              <FormattedMessage id="firstRun.nothing" defaultMessage="Nothing: tick a language above." />
            </p>
          ) : (
            <ul className="first-run-packs" aria-labelledby={`${id}-packs`}>
              {offered.map(({ pack, languages }) => {
                const source = sourceLabel(pack.source_url);
                return (
                  <li key={pack.id} aria-label={intl.formatMessage(m.packLabel, { id: pack.id })}>
                    <div className="row">
                      <span className="pack-name">{pack.id}</span>
                      <span className="spacer" />
                      <span className="small">{formatBytes(pack.size)}</span>
                    </div>
                    <div className="small muted">{packSummary(pack, languages, intl)}</div>
                    <div className="small">
                      <FormattedMessage
                        id="firstRun.licence"
                        defaultMessage="Licence: {licence}"
                        values={{ licence: licenceText(pack, intl) }}
                      />
                      {source && pack.source_url && (
                        <>
                          {' · '}
                          <FormattedMessage
                            id="firstRun.source"
                            defaultMessage="Source: <a>{source}</a>"
                            values={{
                              source,
                              a: (chunks) => (
                                <a href={pack.source_url!} target="_blank" rel="noreferrer">
                                  {chunks}
                                </a>
                              ),
                            }}
                          />
                        </>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
          <p className="small" aria-live="polite">
            {[
              offered.length > 0 &&
                intl.formatMessage(m.total, { count: offered.length, size: formatBytes(bytes) }),
              without.length > 0 && intl.formatMessage(m.without, { languages: namesOf(without, intl) }),
            ]
              .filter(Boolean)
              .join(' ')}
          </p>
          {problem && <p className="error">{problem}</p>}
          <div className="row confirm-actions">
            <BusyButton busy={saving} onClick={() => void skip()}>
              <FormattedMessage id="firstRun.skip" defaultMessage="Skip" />
            </BusyButton>
            <BusyButton
              className="primary"
              busy={saving}
              unavailable={offered.length === 0}
              onClick={() => void download()}
            >
              <FormattedMessage
                id="firstRun.download"
                defaultMessage="{count, plural, =0 {Download} =1 {Download} other {Download # voice packs}}"
                values={{ count: offered.length }}
              />
            </BusyButton>
          </div>
          <p className="hint small">
            <FormattedMessage
              id="firstRun.later"
              defaultMessage="You can download or import voices at any time in the Voice library."
            />
          </p>
        </>
      )}
      {shown === 'downloading' && (
        <>
          <h2 id={`${id}-title`}>
            {finished ? (
              anyFailed ? (
                <FormattedMessage id="firstRun.someFailed" defaultMessage="Some voices were not downloaded" />
              ) : (
                <FormattedMessage id="firstRun.installed" defaultMessage="Natural voices installed" />
              )
            ) : (
              <FormattedMessage id="firstRun.downloading" defaultMessage="Downloading natural voices" />
            )}
          </h2>
          <p id={`${id}-intro`}>
            {finished ? (
              anyFailed ? (
                <FormattedMessage
                  id="firstRun.someFailedIntro"
                  defaultMessage="The voices below were not installed."
                />
              ) : (
                <FormattedMessage
                  id="firstRun.installedIntro"
                  defaultMessage="The voices of these languages now speak with their natural voice."
                />
              )
            ) : (
              <FormattedMessage
                id="firstRun.downloadingIntro"
                defaultMessage="You can close this and keep working: the downloads go on, and the Voice library shows them."
              />
            )}
          </p>
          <ul className="first-run-progress">
            {started.map((packId) => {
              const { state, percent, pack } = progressOf(packId);
              return (
                <li key={packId}>
                  <div className="row">
                    <span className="pack-name">{packId}</span>
                    <span className="spacer" />
                    <span
                      className={`badge ${state === 'installed' ? 'ok' : state === 'failed' ? 'bad' : ''}`}
                    >
                      {state === 'installed' ? (
                        <FormattedMessage id="firstRun.state.installed" defaultMessage="installed" />
                      ) : state === 'failed' ? (
                        <FormattedMessage id="firstRun.state.failed" defaultMessage="not downloaded" />
                      ) : state === 'starting' ? (
                        <FormattedMessage id="firstRun.state.starting" defaultMessage="starting" />
                      ) : (
                        <>{Math.round(percent)} %</>
                      )}
                    </span>
                  </div>
                  {(state === 'installing' || state === 'starting') && (
                    <>
                      <ProgressBar
                        label={intl.formatMessage(m.progressLabel, { id: packId })}
                        value={percent}
                        minWidth={3}
                      />
                      <p className="hint small">
                        {pack?.progress?.phase === 'install' ? (
                          <FormattedMessage id="firstRun.installing" defaultMessage="Installing…" />
                        ) : (
                          intl.formatMessage(m.downloadingBytes, {
                            done: formatBytes(pack?.progress?.bytes ?? 0),
                            total: formatBytes(pack?.progress?.total ?? pack?.size ?? 0),
                          })
                        )}
                      </p>
                    </>
                  )}
                </li>
              );
            })}
          </ul>
          {anyFailed && (
            <p className="error" role="alert">
              {failure ?? <FormattedMessage id="firstRun.failed" defaultMessage="The download failed." />}
            </p>
          )}
          <div className="row confirm-actions">
            {anyFailed && (
              <button
                type="button"
                onClick={() => {
                  setStage('closed');
                  setView('library');
                }}
              >
                <FormattedMessage id="firstRun.openLibrary" defaultMessage="Open the Voice library" />
              </button>
            )}
            <button type="button" className="primary" onClick={() => setStage('closed')}>
              {finished ? (
                <FormattedMessage id="firstRun.done" defaultMessage="Done" />
              ) : (
                <FormattedMessage id="firstRun.background" defaultMessage="Continue in the background" />
              )}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
