import { useEffect, useMemo, useRef, useState } from 'react';
import { defineMessages, useIntl } from 'react-intl';
import type { FirstRunVoiceOffer } from '../../../../electron/shared/settings';
import type { LanguageCode } from '../../../../electron/shared/voices';
import { errorMessage } from '../../lib/api-client';
import { refocus } from '../../lib/focus-return';
import { useClient, useStudio } from '../../stores';
import { defaultLanguages, downloadBytes, offeredPacks } from './voice-offer';

const m = defineMessages<{ notSaved: { error: string } }>({
  notSaved: { id: 'firstRun.notSaved', defaultMessage: 'Your answer was not saved: {error}' },
});

/** `languages` of the browser, or its one `language` (the desktop window's is the system's). */
function preferredLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/** `auto`: the offer shows while it is due; then downloading, or closed by the user. */
type Stage = 'auto' | 'downloading' | 'closed';

/**
 * The first-run offer's state: the stored answer, the stage shown (choose, downloading, closed;
 * the dialog opened and closed to match), the languages ticked and the packs they need, the
 * answer recorded (Skip, Download) and each started pack's progress.
 */
export function useFirstRunOffer() {
  const intl = useIntl();
  const client = useClient();
  const packs = useStudio((s) => s.voicePacks);
  const engines = useStudio((s) => s.voiceEngines);
  const loaded = useStudio((s) => s.voicePacksLoaded);
  const install = useStudio((s) => s.installVoicePack);
  const libraryError = useStudio((s) => s.voicePackError);
  const dialog = useRef<HTMLDialogElement>(null);

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

  return {
    dialog,
    shown,
    setStage,
    chosen,
    toggle,
    offered,
    without,
    bytes,
    problem,
    saving,
    skip,
    download,
    started,
    progressOf,
    finished,
    anyFailed,
    failure,
  };
}

/** What the offer's dialog shows and does (FirstRunChoice.tsx, FirstRunProgress.tsx). */
export type FirstRunOfferState = ReturnType<typeof useFirstRunOffer>;
