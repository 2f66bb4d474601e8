import { isSsml } from '../../../../electron/shared/ssml';
import { offsetAt, ssmlErrorPlace } from '../../lib/dialogue-ssml';
import { useStudio } from '../../stores';

/**
 * Under the editor: what SSML mode means, a missing `<speak>`, and the server's SSML error with
 * its line and column (a button puts the cursor there).
 */
export function SsmlHelp({ id, editor }: { id: string; editor: HTMLTextAreaElement | null }) {
  const text = useStudio((s) => s.text);
  const setText = useStudio((s) => s.setText);
  const ssml = useStudio((s) => s.ssml);
  const setSsml = useStudio((s) => s.setSsml);
  const jobError = useStudio((s) => s.jobError);
  const jobErrorCode = useStudio((s) => s.jobErrorCode);
  const place = jobErrorCode === 'SSML_INVALID' && jobError ? ssmlErrorPlace(jobError) : undefined;
  const startsWithSpeak = isSsml(text);

  const showPlace = () => {
    if (!editor || !place) return;
    const at = offsetAt(editor.value, place.line, place.column);
    editor.focus();
    editor.setSelectionRange(at, Math.min(at + 1, editor.value.length));
  };

  return (
    <>
      {ssml ? (
        <p className="hint ssml-hint" id={id}>
          SSML: sent as typed, the service checks it. <code>&lt;voice name="en_male_onyx_default"&gt;</code>{' '}
          switches voice; <code>&lt;p&gt;</code>, <code>&lt;s&gt;</code>,{' '}
          <code>&lt;break time="500ms"/&gt;</code>, <code>&lt;prosody&gt;</code>, <code>&lt;sub&gt;</code>,{' '}
          <code>&lt;say-as&gt;</code> and <code>&lt;phoneme&gt;</code> work too.
        </p>
      ) : (
        <p className="visually-hidden" id={id}>
          Plain text. Switch SSML on to write markup.
        </p>
      )}
      {ssml && !startsWithSpeak && text.trim() !== '' && (
        <div className="notice row ssml-notice">
          <span>SSML starts with &lt;speak&gt;.</span>
          <button type="button" onClick={() => setText(`<speak>\n${text.trim()}\n</speak>`)}>
            Wrap in &lt;speak&gt;
          </button>
        </div>
      )}
      {!ssml && startsWithSpeak && (
        <div className="notice row ssml-notice">
          <span>The text starts with &lt;speak&gt;: the service reads it as SSML.</span>
          <button type="button" onClick={() => setSsml(true)}>
            Switch SSML on
          </button>
        </div>
      )}
      {jobErrorCode === 'SSML_INVALID' && jobError && (
        <div className="error row ssml-error" role="alert" aria-label="SSML error">
          <span>{jobError}</span>
          {place && (
            <button type="button" className="link" onClick={showPlace}>
              Show line {place.line}, column {place.column}
            </button>
          )}
        </div>
      )}
    </>
  );
}
