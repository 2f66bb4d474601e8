import { useContext, useEffect, useRef, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type MessageDescriptor } from 'react-intl';
import { ApiView } from '../features/api/ApiView';
import { SignIn } from '../features/auth/SignIn';
import { CallbacksView } from '../features/callbacks/CallbacksView';
import { ExportView } from '../features/export/ExportView';
import { FirstRunOffer } from '../features/first-run/FirstRunOffer';
import { HistoryView } from '../features/history/HistoryView';
import { LexiconView } from '../features/lexicon/LexiconView';
import { ReadingView } from '../features/reading/ReadingView';
import { ProjectsView } from '../features/projects/ProjectsView';
import { SettingsView } from '../features/settings/SettingsView';
import { StudioView } from '../features/compose/StudioView';
import { VoiceLibraryView } from '../features/voice-library/VoiceLibraryView';
import { VoicesView } from '../features/voices/VoicesView';
import { connectAddress, formatAddress } from '../lib/address';
import { getDesktop } from '../lib/desktop';
import { useShortcut } from '../lib/shortcuts';
import { StudioContext, useStudio } from '../stores';
import { VIEWS, type View } from '../stores/ui-slice';
import { useDocumentTitle } from './document-title';
import { KeyboardShortcutsDialog } from './KeyboardShortcutsDialog';
import { NavIcon } from './nav-icons';
import { useTheme } from './useTheme';
import { VIEW_NAMES } from './view-names';
import { formatCredits } from '../lib/format';

const m = defineMessages({
  main: { id: 'app.nav.main', defaultMessage: 'Main' },
});
const balanceTitle = defineMessages<{ title: { credits: string } }>({
  title: { id: 'app.balance.title', defaultMessage: 'Balance: {credits} credits' },
}).title;

const NAV: { view: View; label: MessageDescriptor }[] = VIEWS.map((view) => ({
  view,
  label: VIEW_NAMES[view],
}));

export function App() {
  useTheme();
  const intl = useIntl();
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
  const [shortcutsOpen, setShortcutsOpen] = useState(false);

  useDocumentTitle(status === 'signed-in');
  // `?` (outside a text field) lists the keyboard shortcuts.
  useShortcut('help', () => setShortcutsOpen(true), status === 'signed-in');

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
        <FormattedMessage id="app.skipToContent" defaultMessage="Skip to content" />
      </button>
      <nav className="sidebar" aria-label={intl.formatMessage(m.main)}>
        <div className="brand">
          <img src="favicon.svg" alt="" />
          {/* eslint-disable-next-line messages/no-words-in-jsx -- the product's name, the same in every language */}
          <span className="brand-name">Narration Studio</span>
        </div>
        {NAV.map((item) => (
          // A link to the view's address (relative: a sub-path keeps working), so a middle click
          // or "Open in new tab" opens the view; a plain click shows it in place.
          <a
            key={item.view}
            href={formatAddress({ view: item.view })}
            className="nav-button"
            data-view={item.view}
            aria-current={view === item.view ? 'page' : undefined}
            onClick={(e) => {
              if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
              e.preventDefault();
              // "Projects" again, from an open project, goes back to the list.
              if (item.view === 'projects' && view === 'projects' && projectOpen) closeProject();
              setView(item.view);
            }}
          >
            <NavIcon view={item.view} />
            {/* Beside the icon in a wide window; beside the sidebar on hover or focus in a narrow one. */}
            <span className="nav-label">{intl.formatMessage(item.label)}</span>
          </a>
        ))}
        <div className="sidebar-foot">
          {balance !== undefined && (
            <p
              className="balance"
              title={intl.formatMessage(balanceTitle, { credits: formatCredits(balance) })}
            >
              {/* Each word hides in a narrow window, the figure stays. */}
              <FormattedMessage
                id="app.balance"
                defaultMessage="<word>Balance</word> <b>{credits}</b> <word>credits</word>"
                values={{
                  credits: formatCredits(balance),
                  word: (chunks) => <span className="balance-word">{chunks}</span>,
                  b: (chunks) => <b>{chunks}</b>,
                }}
              />
            </p>
          )}
          <p>
            <button
              type="button"
              className="link-button"
              aria-keyshortcuts="?"
              onClick={() => setShortcutsOpen(true)}
            >
              <FormattedMessage id="app.shortcuts" defaultMessage="Keyboard shortcuts" />
            </button>
          </p>
          {/* The desktop window signs itself in; a browser can end its session here. */}
          {!getDesktop() && (
            <p>
              <button type="button" className="link-button" onClick={() => void signOut()}>
                <FormattedMessage id="app.signOut" defaultMessage="Sign out" />
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
        {view === 'reading' && <ReadingView />}
        {view === 'export' && <ExportView />}
        {view === 'history' && <HistoryView />}
        {view === 'callbacks' && <CallbacksView />}
        {view === 'api' && <ApiView />}
        {view === 'settings' && <SettingsView />}
      </main>
      <FirstRunOffer />
      <KeyboardShortcutsDialog open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} />
    </div>
  );
}
