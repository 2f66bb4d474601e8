import { isSsml } from '../../../../electron/shared/ssml';
import { useStudio } from '../../stores';

/**
 * Under the editor: what SSML mode means and a missing `<speak>`. An SSML error shows once, as
 * the Compose panel's error, with its line and column.
 */
export function SsmlHelp({ id }: { id: string }) {
  const text = useStudio((s) => s.text);
  const setText = useStudio((s) => s.setText);
  const ssml = useStudio((s) => s.ssml);
  const setSsml = useStudio((s) => s.setSsml);
  const startsWithSpeak = isSsml(text);

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
    </>
  );
}
