import { FormattedMessage } from 'react-intl';
import { isSsml } from '../../../../electron/shared/ssml';
import { useStudio } from '../../stores';

/** SSML tags the hint names: markup, the same in every language. */
const TAGS = {
  voice: '<voice name="en_male_onyx_default">',
  p: '<p>',
  s: '<s>',
  pause: '<break time="500ms"/>',
  prosody: '<prosody>',
  sub: '<sub>',
  sayAs: '<say-as>',
  phoneme: '<phoneme>',
} as const;

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
          <FormattedMessage
            id="compose.ssml.hint"
            defaultMessage="SSML: sent as typed, the service checks it. {voice} switches voice; {p}, {s}, {pause}, {prosody}, {sub}, {sayAs} and {phoneme} work too."
            values={{
              voice: <code>{TAGS.voice}</code>,
              p: <code>{TAGS.p}</code>,
              s: <code>{TAGS.s}</code>,
              pause: <code>{TAGS.pause}</code>,
              prosody: <code>{TAGS.prosody}</code>,
              sub: <code>{TAGS.sub}</code>,
              sayAs: <code>{TAGS.sayAs}</code>,
              phoneme: <code>{TAGS.phoneme}</code>,
            }}
          />
        </p>
      ) : (
        <p className="visually-hidden" id={id}>
          <FormattedMessage
            id="compose.ssml.plain"
            defaultMessage="Plain text. Switch SSML on to write markup."
          />
        </p>
      )}
      {ssml && !startsWithSpeak && text.trim() !== '' && (
        <div className="notice row ssml-notice">
          <span>
            <FormattedMessage id="compose.ssml.needsSpeak" defaultMessage="SSML starts with '<'speak>." />
          </span>
          <button type="button" onClick={() => setText(`<speak>\n${text.trim()}\n</speak>`)}>
            <FormattedMessage id="compose.ssml.wrap" defaultMessage="Wrap in '<'speak>" />
          </button>
        </div>
      )}
      {!ssml && startsWithSpeak && (
        <div className="notice row ssml-notice">
          <span>
            <FormattedMessage
              id="compose.ssml.startsWithSpeak"
              defaultMessage="The text starts with '<'speak>: the service reads it as SSML."
            />
          </span>
          <button type="button" onClick={() => setSsml(true)}>
            <FormattedMessage id="compose.ssml.switchOn" defaultMessage="Switch SSML on" />
          </button>
        </div>
      )}
    </>
  );
}
