import { FormattedMessage } from 'react-intl';
import { useShortcut } from '../../lib/shortcuts';
import { useStudio } from '../../stores';
import { ComposePanel } from './ComposePanel';
import { ControlsPanel } from '../controls/ControlsPanel';
import { GeneratePanel } from '../preview/GeneratePanel';

/** The main view: write, choose voice and options, generate, listen. */
export function StudioView() {
  const generate = useStudio((s) => s.generate);

  // Ctrl+Enter (Cmd+Enter on a Mac): Generate, from any field of the Studio, the editor too.
  useShortcut('generate', () => void generate());

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
