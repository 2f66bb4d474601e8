import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { CharacterRecord, QuoteVoice, SegmentRecord } from '../../../../electron/shared/projects';
import { findQuotes } from '../../lib/quotes';
import { useStudio } from '../../stores';
import { characterName } from './project-format';

/** "Narrator", or "Ruth (narrator)" when a person gave the narrator a name (its role, not its words). */
function narratorLabel(characters: readonly CharacterRecord[], intl: IntlShape): string {
  const narrator = characters.find((c) => c.narrator);
  if (narrator === undefined || !narrator.named)
    return intl.formatMessage({ id: 'projects.segment.narrator', defaultMessage: 'Narrator' });
  return intl.formatMessage(
    { id: 'projects.editor.namedNarrator', defaultMessage: '{name} (narrator)' },
    { name: narrator.name },
  );
}

/** Who speaks a segment (the narrator or a character) and, when the text suggests another, an offer to confirm it. */
export function SegmentSpeakerField({
  id,
  segment,
  characters,
}: {
  id: string;
  segment: SegmentRecord;
  characters: readonly CharacterRecord[];
}) {
  const intl = useIntl();
  const updateSegment = useStudio((s) => s.updateSegment);
  const applySuggestions = useStudio((s) => s.applySuggestions);
  const suggested =
    segment.suggested_speaker !== null && segment.suggested_speaker !== segment.speaker
      ? (characters.find((c) => c.id === segment.suggested_speaker)?.name ?? segment.suggested_speaker)
      : null;
  return (
    <div className="field">
      <label htmlFor={`${id}-speaker`}>
        <FormattedMessage id="projects.segment.speaker" defaultMessage="Speaker" />
      </label>
      <select
        id={`${id}-speaker`}
        value={segment.speaker ?? ''}
        onChange={(e) => void updateSegment(segment.id, { speaker: e.target.value || null })}
      >
        <option value="">{narratorLabel(characters, intl)}</option>
        {characters
          .filter((c) => !c.narrator)
          .map((c) => (
            <option key={c.id} value={c.id}>
              {c.confirmed
                ? c.name
                : intl.formatMessage(
                    { id: 'projects.editor.suggestedName', defaultMessage: '{name} (suggested)' },
                    { name: c.name },
                  )}
            </option>
          ))}
      </select>
      {suggested && (
        <p className="hint">
          <FormattedMessage
            id="projects.editor.suggests"
            defaultMessage="The text suggests {name}."
            values={{ name: suggested }}
          />{' '}
          <button type="button" className="link" onClick={() => void applySuggestions([segment.id])}>
            <FormattedMessage
              id="projects.cast.confirm"
              defaultMessage="Confirm {name}"
              values={{ name: suggested }}
            />
          </button>
        </p>
      )}
    </div>
  );
}

/** The voice of each quotation in a segment (as the segment's speaker unless chosen). */
export function QuoteVoiceFields({
  id,
  segment,
  characters,
  speaker,
}: {
  id: string;
  segment: SegmentRecord;
  characters: readonly CharacterRecord[];
  /** Who speaks the segment (its character, else the narrator), if any. */
  speaker: CharacterRecord | undefined;
}) {
  const intl = useIntl();
  const updateSegment = useStudio((s) => s.updateSegment);
  const quotes = findQuotes(segment.text);
  const quoteVoice = (start: number, end: number) =>
    segment.quotes.find((q) => q.start === start && q.end === end)?.character_id ?? '';
  const setQuoteVoice = (start: number, end: number, characterId: string) => {
    const rest: QuoteVoice[] = segment.quotes.filter((q) => !(q.start === start && q.end === end));
    void updateSegment(segment.id, {
      quotes: characterId
        ? [...rest, { start, end, character_id: characterId }].sort((a, b) => a.start - b.start)
        : rest,
    });
  };
  return (
    <>
      {quotes.map((q, qi) => (
        <div className="field" key={`${q.start}-${q.end}`}>
          <label htmlFor={`${id}-quote-${qi}`}>
            <FormattedMessage
              id="projects.cast.voiceOf"
              defaultMessage="Voice of {name}"
              values={{ name: q.text.length > 40 ? `${q.text.slice(0, 38)}…` : q.text }}
            />
          </label>
          <select
            id={`${id}-quote-${qi}`}
            value={quoteVoice(q.start, q.end)}
            onChange={(e) => setQuoteVoice(q.start, q.end, e.target.value)}
          >
            <option value="">
              {speaker
                ? intl.formatMessage(
                    { id: 'projects.editor.asSegment', defaultMessage: 'As the segment ({name})' },
                    { name: characterName(speaker, intl) },
                  )
                : intl.formatMessage({
                    id: 'projects.editor.asSegmentNarrator',
                    defaultMessage: 'As the segment (narrator)',
                  })}
            </option>
            {characters.map((c) => (
              <option key={c.id} value={c.id}>
                {characterName(c, intl)}
              </option>
            ))}
          </select>
        </div>
      ))}
    </>
  );
}
