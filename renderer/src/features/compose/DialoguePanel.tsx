import { useDeferredValue, useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { VoiceOptions, VoiceSelect } from '../../components/VoiceSelect';
import { voiceNameOf } from '../../lib/voice-codes';
import { planDialogue, type PlannedParagraph } from '../../lib/dialogue-ssml';
import { useStudio } from '../../stores';

/** Paragraphs listed at most; a chapter longer than this still speaks whole, the list says how many more. */
const MAX_LISTED = 200;
/** Characters of each paragraph shown in the preview. */
const EXCERPT_CHARS = 220;
/** Colours of the preview (styles.css: .voice-0 … .voice-5), given in order of first use. */
const PALETTE_SIZE = 6;

/** A voice code's name, the user's own voices included. */
function useVoiceName(): (code: string) => string {
  const customVoices = useStudio((s) => s.customVoices);
  return (code) => voiceNameOf(code, customVoices);
}

/**
 * Dialogue voices: the narrator (the main voice), a character voice for quoted speech, and a voice
 * per paragraph, with a colour-coded preview of who reads what. Generate sends the SSML these make.
 */
export function DialoguePanel() {
  const text = useStudio((s) => s.text);
  const narrator = useStudio((s) => s.options.voice_code);
  const setOption = useStudio((s) => s.setOption);
  const dialogue = useStudio((s) => s.dialogue);
  const setCharacterVoice = useStudio((s) => s.setCharacterVoice);
  const setParagraphVoice = useStudio((s) => s.setParagraphVoice);
  const clearParagraphVoices = useStudio((s) => s.clearParagraphVoices);
  const convert = useStudio((s) => s.convertDialogueToSsml);
  const intl = useIntl();
  const id = useId();
  // Planning a long chapter runs behind typing, like the character count.
  const deferred = useDeferredValue(text);
  const plan = useMemo(
    () =>
      planDialogue(deferred, { narrator, character: dialogue.character, paragraphs: dialogue.paragraphs }),
    [deferred, narrator, dialogue.character, dialogue.paragraphs],
  );
  const colours = useMemo(() => {
    const order = new Map<string, number>([[narrator, 0]]);
    const add = (code: string) => {
      if (!order.has(code)) order.set(code, order.size % PALETTE_SIZE);
    };
    if (dialogue.character) add(dialogue.character);
    for (const p of plan) for (const s of p.spans) add(s.voice);
    return order;
  }, [plan, narrator, dialogue.character]);
  const [editing, setEditing] = useState<number | null>(null);
  const assigned = Object.keys(dialogue.paragraphs).length;
  const isSpoken = plan.some((p) => p.spans.some((s) => s.voice !== narrator));
  const colourOf = (code: string) => `voice-${colours.get(code) ?? 0}`;

  return (
    <section className="dialogue" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h3 id={`${id}-title`}>
          <FormattedMessage id="compose.dialogue.title" defaultMessage="Dialogue voices" />
        </h3>
        <div className="row">
          <button type="button" onClick={clearParagraphVoices} disabled={assigned === 0}>
            <FormattedMessage id="compose.dialogue.clearParagraphs" defaultMessage="Clear paragraph voices" />
          </button>
          <button
            type="button"
            onClick={convert}
            disabled={!isSpoken}
            title={intl.formatMessage({
              id: 'compose.dialogue.editAsSsml.title',
              defaultMessage: 'Replace the text with the SSML these voices make, to fine-tune it by hand',
            })}
          >
            <FormattedMessage id="compose.dialogue.editAsSsml" defaultMessage="Edit as SSML" />
          </button>
        </div>
      </div>
      <div className="dialogue-voices">
        <div className="field">
          <label htmlFor={`${id}-narrator`}>
            <span className={`voice-swatch ${colourOf(narrator)}`} aria-hidden />{' '}
            <FormattedMessage id="compose.dialogue.narrator" defaultMessage="Narrator voice" />
          </label>
          <VoiceSelect
            id={`${id}-narrator`}
            value={narrator}
            onChange={(code) => setOption('voice_code', code)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-character`}>
            <span className={`voice-swatch ${colourOf(dialogue.character ?? narrator)}`} aria-hidden />{' '}
            <FormattedMessage id="compose.dialogue.quoted" defaultMessage="Quoted speech" />
          </label>
          <VoiceSelect
            id={`${id}-character`}
            emptyLabel={intl.formatMessage({
              id: 'compose.dialogue.theNarrator',
              defaultMessage: 'The narrator',
            })}
            value={dialogue.character ?? ''}
            onChange={(code) => setCharacterVoice(code === '' ? null : code)}
          />
        </div>
      </div>
      <p className="hint">
        <FormattedMessage
          id="compose.dialogue.hint"
          defaultMessage='Text in “…”, "…", «…», „…“ or ‘…’ is quoted speech; a quote left open runs to the end of its paragraph. Click a paragraph’s marker to give that whole paragraph a voice.'
        />
      </p>
      {colours.size > 1 && (
        <VoiceLegend
          codes={[...colours.keys()]}
          narrator={narrator}
          character={dialogue.character}
          colourOf={colourOf}
        />
      )}
      {plan.length === 0 ? (
        <p className="muted">
          <FormattedMessage
            id="compose.dialogue.empty"
            defaultMessage="Paragraphs appear here as you write (a blank line starts a new one)."
          />
        </p>
      ) : (
        <ol
          className="dialogue-paragraphs"
          aria-label={intl.formatMessage({
            id: 'compose.dialogue.paragraphs',
            defaultMessage: 'Who reads each paragraph',
          })}
        >
          {plan.slice(0, MAX_LISTED).map((p) => (
            <ParagraphRow
              key={p.index}
              paragraph={p}
              narrator={narrator}
              colourOf={colourOf}
              editing={editing === p.index}
              onEdit={() => setEditing(editing === p.index ? null : p.index)}
              onAssign={(code) => {
                setParagraphVoice(p.index, code);
                setEditing(null);
              }}
            />
          ))}
        </ol>
      )}
      {plan.length > MAX_LISTED && (
        <p className="hint">
          <FormattedMessage
            id="compose.dialogue.more"
            defaultMessage="{count, plural, one {# more paragraph} other {# more paragraphs}}, read as set above."
            values={{ count: plan.length - MAX_LISTED }}
          />
        </p>
      )}
      {!isSpoken && plan.length > 0 && (
        <p className="hint" role="status">
          <FormattedMessage
            id="compose.dialogue.allNarrator"
            defaultMessage="The narrator reads everything: the text is sent as plain text."
          />
        </p>
      )}
    </section>
  );
}

/** The voices of the text in their colours: the narrator's, the quoted speech's, the paragraphs'. */
function VoiceLegend({
  codes,
  narrator,
  character,
  colourOf,
}: {
  codes: readonly string[];
  narrator: string;
  character: string | null | undefined;
  colourOf(code: string): string;
}) {
  const intl = useIntl();
  const voiceName = useVoiceName();
  return (
    <ul
      className="voice-legend"
      aria-label={intl.formatMessage({
        id: 'compose.dialogue.legend',
        defaultMessage: 'Voices in this text',
      })}
    >
      {codes.map((code) => (
        <li key={code} className={`voice-span ${colourOf(code)}`}>
          {code === narrator ? (
            <FormattedMessage
              id="compose.dialogue.legend.narrator"
              defaultMessage="{voice} (narrator)"
              values={{ voice: voiceName(code) }}
            />
          ) : code === character ? (
            <FormattedMessage
              id="compose.dialogue.legend.quoted"
              defaultMessage="{voice} (quoted speech)"
              values={{ voice: voiceName(code) }}
            />
          ) : (
            voiceName(code)
          )}
        </li>
      ))}
    </ul>
  );
}

function ParagraphRow({
  paragraph,
  narrator,
  colourOf,
  editing,
  onEdit,
  onAssign,
}: {
  paragraph: PlannedParagraph;
  narrator: string;
  colourOf: (code: string) => string;
  editing: boolean;
  onEdit: () => void;
  onAssign: (code: string | null) => void;
}) {
  const voiceName = useVoiceName();
  const intl = useIntl();
  const number = paragraph.index + 1;
  const chip = paragraph.override ?? narrator;
  let remaining = EXCERPT_CHARS;
  const shown = [];
  for (const [i, span] of paragraph.spans.entries()) {
    if (remaining <= 0) break;
    const text = span.text.length > remaining ? `${span.text.slice(0, remaining)}…` : span.text;
    remaining -= span.text.length;
    shown.push(
      <span key={i} className={`voice-span ${colourOf(span.voice)}`} title={voiceName(span.voice)}>
        {text}
      </span>,
    );
  }
  return (
    <li className={paragraph.override ? 'assigned' : undefined}>
      <button
        type="button"
        className={`voice-chip ${colourOf(chip)}`}
        aria-expanded={editing}
        aria-label={
          paragraph.override
            ? intl.formatMessage(
                { id: 'compose.dialogue.paragraph.voice', defaultMessage: 'Paragraph {number}: {voice}' },
                { number, voice: voiceName(paragraph.override) },
              )
            : intl.formatMessage(
                {
                  id: 'compose.dialogue.paragraph.dialogue',
                  defaultMessage: 'Paragraph {number}: dialogue voices',
                },
                { number },
              )
        }
        onClick={onEdit}
      >
        ¶{number} ·{' '}
        {paragraph.override ? (
          voiceName(paragraph.override)
        ) : (
          <FormattedMessage id="compose.dialogue.chip" defaultMessage="Dialogue" />
        )}
      </button>
      <div className="voice-preview">
        {shown}
        {editing && (
          <select
            className="paragraph-voice"
            aria-label={intl.formatMessage(
              { id: 'compose.dialogue.paragraph.select', defaultMessage: 'Voice for paragraph {number}' },
              { number },
            )}
            value={paragraph.override ?? ''}
            // Opened by the marker: the choice is the next thing to do.
            autoFocus
            onChange={(e) => onAssign(e.target.value === '' ? null : e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') onEdit();
            }}
          >
            <option value="">
              {intl.formatMessage({
                id: 'compose.dialogue.paragraph.default',
                defaultMessage: 'Narrator and quoted speech',
              })}
            </option>
            <VoiceOptions />
          </select>
        )}
      </div>
    </li>
  );
}
