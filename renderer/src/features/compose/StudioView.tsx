import { ComposePanel } from './ComposePanel';
import { ControlsPanel } from '../controls/ControlsPanel';
import { GeneratePanel } from '../preview/GeneratePanel';

/** The main view: write, choose voice and options, generate, listen. */
export function StudioView() {
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Studio</h1>
          <p>Write or paste your text, pick a voice, adjust it, and listen.</p>
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
