import { useEffect } from 'react';
import { FormattedMessage } from 'react-intl';
import { useStudio } from '../../stores';
import { ComposePanel } from './ComposePanel';
import { ControlsPanel } from '../controls/ControlsPanel';
import { GeneratePanel } from '../preview/GeneratePanel';

/** Ctrl+Enter (Cmd+Enter on a Mac): Generate, from anywhere in the Studio, the editor too. */
function isGenerateShortcut(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>) {
  return e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
}

/** The main view: write, choose voice and options, generate, listen. */
export function StudioView() {
  const generate = useStudio((s) => s.generate);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat || !isGenerateShortcut(e)) return;
      // A question open over the Studio (a modal dialog) answers its own keys.
      if (document.querySelector('dialog[open]')) return;
      e.preventDefault();
      void generate();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [generate]);

  return (
    <>
      <div className="page-head">
        <div>
          <h1>
            <FormattedMessage id="compose.studio.title" defaultMessage="Studio" />
          </h1>
          <p>
            <FormattedMessage
              id="compose.studio.intro"
              defaultMessage="Write or paste your text, pick a voice, adjust it, and listen."
            />
          </p>
        </div>
      </div>
      <div className="studio-grid">
        <div className="stack">
          <ComposePanel />
          <GeneratePanel />
        </div>
        <ControlsPanel />
      </div>
    </>
  );
}
