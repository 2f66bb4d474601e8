import { useContext, useEffect, useRef } from 'react';
import { ApiView } from '../features/api/ApiView';
import { SignIn } from '../features/auth/SignIn';
import { CallbacksView } from '../features/callbacks/CallbacksView';
import { ExportView } from '../features/export/ExportView';
import { FirstRunOffer } from '../features/first-run/FirstRunOffer';
import { HistoryView } from '../features/history/HistoryView';
import { LexiconView } from '../features/lexicon/LexiconView';
import { ProjectsView } from '../features/projects/ProjectsView';
import { SettingsView } from '../features/settings/SettingsView';
import { StudioView } from '../features/compose/StudioView';
import { VoiceLibraryView } from '../features/voice-library/VoiceLibraryView';
import { VoicesView } from '../features/voices/VoicesView';
import { connectAddress } from '../lib/address';
import { getDesktop } from '../lib/desktop';
import { StudioContext, useStudio } from '../stores';
import type { View } from '../stores/ui-slice';
import { NavIcon } from './nav-icons';
import { useTheme } from './useTheme';
import { formatCredits } from '../lib/format';

const NAV: { view: View; label: string }[] = [
  { view: 'projects', label: 'Projects' },
  { view: 'studio', label: 'Studio' },
  { view: 'voices', label: 'Voices' },
  { view: 'library', label: 'Voice library' },
  { view: 'lexicon', label: 'Lexicon' },
  { view: 'export', label: 'Export' },
  { view: 'history', label: 'History' },
  { view: 'callbacks', label: 'Callbacks' },
  { view: 'api', label: 'API' },
  { view: 'settings', label: 'Settings' },
];

export function App() {
  useTheme();
  const status = useStudio((s) => s.sessionStatus);
  const checkSession = useStudio((s) => s.checkSession);
  const view = useStudio((s) => s.view);
  const setView = useStudio((s) => s.setView);
  const balance = useStudio((s) => s.session?.key.balance);
  const loadVoicePacks = useStudio((s) => s.loadVoicePacks);
  const loadCustomVoices = useStudio((s) => s.loadCustomVoices);
  const signOut = useStudio((s) => s.signOut);
  const projectOpen = useStudio((s) => s.project !== null);
  const closeProject = useStudio((s) => s.closeProject);
  const store = useContext(StudioContext)?.store;
  const main = useRef<HTMLElement>(null);

  useEffect(() => {
    void checkSession();
  }, [checkSession]);
  // Every view and open item has an address (lib/address.ts): read once signed in, then kept.
  useEffect(() => {
    if (status !== 'signed-in' || !store) return;
    return connectAddress(store, window);
  }, [status, store]);
  // What speaks each voice (natural or basic) shows in the picker and the Voices view.
  useEffect(() => {
    if (status === 'signed-in') void loadVoicePacks();
  }, [status, loadVoicePacks]);
  // The user's own voices are offered by every voice picker.
  useEffect(() => {
    if (status === 'signed-in') void loadCustomVoices();
  }, [status, loadCustomVoices]);

  if (status !== 'signed-in') return <SignIn />;

  return (
    <div className="shell">
      {/* The first Tab stop: past the sidebar to the view. */}
      <button type="button" className="skip-link" onClick={() => main.current?.focus()}>
        Skip to content
      </button>
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <img src="/favicon.svg" alt="" />
          <span className="brand-name">Narration Studio</span>
        </div>
        {NAV.map((item) => (
          <button
            key={item.view}
            type="button"
            className="nav-button"
            aria-current={view === item.view ? 'page' : undefined}
            onClick={() => {
              // "Projects" again, from an open project, goes back to the list.
              if (item.view === 'projects' && view === 'projects' && projectOpen) closeProject();
              setView(item.view);
            }}
          >
            <NavIcon view={item.view} />
            {/* Beside the icon in a wide window; beside the sidebar on hover or focus in a narrow one. */}
            <span className="nav-label">{item.label}</span>
          </button>
        ))}
        <div className="sidebar-foot">
          {balance !== undefined && (
            <p className="balance" title={`Balance: ${formatCredits(balance)} credits`}>
              <span className="balance-word">Balance</span> <b>{formatCredits(balance)}</b>{' '}
              <span className="balance-word">credits</span>
            </p>
          )}
          {/* The desktop window signs itself in; a browser can end its session here. */}
          {!getDesktop() && (
            <p>
              <button type="button" className="link-button" onClick={() => void signOut()}>
                Sign out
              </button>
            </p>
          )}
        </div>
      </nav>
      <main className="main" id="main" ref={main} tabIndex={-1}>
        {view === 'projects' && <ProjectsView />}
        {view === 'studio' && <StudioView />}
        {view === 'voices' && <VoicesView />}
        {view === 'library' && <VoiceLibraryView />}
        {view === 'lexicon' && <LexiconView />}
        {view === 'export' && <ExportView />}
        {view === 'history' && <HistoryView />}
        {view === 'callbacks' && <CallbacksView />}
        {view === 'api' && <ApiView />}
        {view === 'settings' && <SettingsView />}
      </main>
      <FirstRunOffer />
    </div>
  );
}
