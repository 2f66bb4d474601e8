import { defineMessages } from 'react-intl';
import type { ErrorDetails } from '../../../electron/shared/api';
import { AppError } from '../../../electron/shared/errors';
import { ApiError, errorMessage } from '../lib/api-client';
import type { Described, ShownText } from '../lib/intl-text';
import { isSsml, parseSsml } from '../../../electron/shared/ssml';
import { hasSpeakableContent } from '../../../electron/shared/text';
import { mayBeVoiceCode } from '../lib/voice-codes';
import { dialogueToSsml, remapParagraphVoices } from '../lib/dialogue-ssml';
import { readJson, type SliceCreator, type StudioState } from './types';

export const DRAFT_KEY = 'narration-studio.draft';
export const DIALOGUE_KEY = 'narration-studio.dialogue';
export const SSML_KEY = 'narration-studio.ssml';
/** The draft as it was before Clear or opening a file replaced it: kept until Undo or the next replace. */
export const REPLACED_DRAFT_KEY = 'narration-studio.replaced-draft';

/** A draft that Clear, an opened file or a request opened from History replaced, with what replaced it, for Undo. */
export interface ReplacedDraft {
  text: string;
  ssml: boolean;
  /** What happened, for the Undo toast: cleared, or replaced by a file's text. */
  by: { kind: 'clear' } | { kind: 'file'; fileName: string } | { kind: 'history'; requestId: string };
}

function readReplacedDraft(storage: Parameters<typeof readJson>[0]): ReplacedDraft | null {
  const stored = readJson<ReplacedDraft>(storage, REPLACED_DRAFT_KEY);
  if (!stored || typeof stored.text !== 'string' || stored.text === '') return null;
  const by: ReplacedDraft['by'] =
    stored.by?.kind === 'file' && typeof stored.by.fileName === 'string'
      ? stored.by
      : stored.by?.kind === 'history' && typeof stored.by.requestId === 'string'
        ? stored.by
        : { kind: 'clear' as const };
  return { text: stored.text, ssml: stored.ssml === true, by };
}

/** Dialogue voices of the compose box; the narrator is the main voice (`options.voice_code`). */
export interface DialogueSettings {
  /** Whether the assignments apply (the Dialogue panel is open). */
  enabled: boolean;
  /** Voice code reading quoted speech; null: the narrator reads it. */
  character: string | null;
  /** Paragraph index → voice code reading that whole paragraph. */
  paragraphs: Record<number, string>;
}

/** Stored settings made valid: unknown voice codes and bad indices are dropped. */
export function sanitiseDialogue(input: Partial<DialogueSettings> | undefined): DialogueSettings {
  const paragraphs: Record<number, string> = {};
  for (const [key, code] of Object.entries(input?.paragraphs ?? {})) {
    if (/^\d+$/.test(key) && mayBeVoiceCode(code)) paragraphs[Number(key)] = code;
  }
  return {
    enabled: input?.enabled === true,
    character: mayBeVoiceCode(input?.character) ? input.character : null,
    paragraphs,
  };
}

export interface ComposeSlice {
  /** The draft; saved to storage shortly after each change, so it survives a restart. */
  text: string;
  /**
   * SSML mode: the draft is sent as typed and the server reads it as SSML. Switched on by itself
   * when the draft comes to start with `<speak>` (the API reads such input as SSML anyway).
   */
  ssml: boolean;
  dialogue: DialogueSettings;
  /** The draft Clear or an opened file replaced (kept in storage too: autosave does not lose it). */
  replacedDraft: ReplacedDraft | null;
  setText(text: string): void;
  /**
   * Keeps the current draft as `replacedDraft` before it is replaced (the caller then changes the
   * text: in the editor, so that its own Ctrl+Z works too). Nothing is kept for an empty draft.
   */
  rememberDraft(by: ReplacedDraft['by']): void;
  /** The text Undo brings back (and forgets it), or undefined when there is none. */
  takeReplacedDraft(): ReplacedDraft | undefined;
  /** Forgets the replaced draft (the Undo toast closed). */
  dismissReplacedDraft(): void;
  setSsml(on: boolean): void;
  setDialogueEnabled(on: boolean): void;
  /** The voice for quoted speech; null: the narrator reads it. */
  setCharacterVoice(code: string | null): void;
  /** The voice reading one whole paragraph; null removes the assignment. */
  setParagraphVoice(index: number, code: string | null): void;
  clearParagraphVoices(): void;
  /** Replaces the draft with the dialogue's SSML and switches SSML mode on, to edit it by hand. */
  convertDialogueToSsml(): void;
}

/** Where in the draft a problem is: 1-based line and column, 0-based offset (UTF-16). */
export interface TextPlace {
  line: number;
  column: number;
  offset?: number;
}

const messages = defineMessages({
  empty: { id: 'compose.problem.empty', defaultMessage: 'Write or paste some text first.' },
  noSpeak: {
    id: 'compose.problem.noSpeak',
    defaultMessage: "SSML starts with '<'speak>: add the tag, or switch SSML off to send plain text.",
  },
  speakInPlain: {
    id: 'compose.problem.speakInPlain',
    defaultMessage: "The text starts with '<'speak>, which the service reads as SSML: switch SSML on.",
  },
  nothingToSpeak: {
    id: 'compose.problem.nothingToSpeak',
    defaultMessage:
      'Nothing to speak: the text has no letters or digits, only punctuation, symbols or emoji.',
  },
});

/** Why the draft cannot be sent: a message or the parser's sentence, the API's error code when it is one, the place. */
export interface InputProblem {
  problem: ShownText;
  code?: 'SSML_INVALID' | 'NOTHING_TO_SPEAK';
  place?: TextPlace;
}

export const NOTHING_TO_SPEAK_MESSAGE: Described = { message: messages.nothingToSpeak };

/** The SSML problem of `text` read as the server reads it, with its place; undefined when it parses. */
function ssmlProblem(
  text: string,
  state: Pick<StudioState, 'options'> & Partial<Pick<StudioState, 'customVoices'>>,
): InputProblem | undefined {
  try {
    const document = parseSsml(text, {
      voiceCode: state.options.voice_code,
      customVoices: Object.fromEntries((state.customVoices ?? []).map((v) => [v.code, v])),
    });
    return hasSpeakableContent(document.text)
      ? undefined
      : { problem: NOTHING_TO_SPEAK_MESSAGE, code: 'NOTHING_TO_SPEAK' };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'SSML_INVALID') return undefined;
    const { line, column, offset } = error.details ?? {};
    return {
      // Worded as the server's answer would be: from the code and details, in the interface's language.
      problem: errorMessage(new ApiError('SSML_INVALID', error.message, 0, error.details as ErrorDetails)),
      code: 'SSML_INVALID',
      ...(typeof line === 'number' && typeof column === 'number'
        ? { place: { line, column, ...(typeof offset === 'number' ? { offset } : {}) } }
        : {}),
    };
  }
}

/**
 * What `input_text` carries for the draft: the draft as typed (SSML mode, or no dialogue voice
 * differs from the narrator), or the dialogue's generated SSML. A problem instead when nothing
 * sensible can be sent: no text, nothing to speak (only punctuation, symbols or emoji: the
 * server refuses it too), SSML that does not parse (with its line and column, as the server
 * would say), SSML mode without `<speak>`.
 */
export function composedInput(
  state: Pick<StudioState, 'text' | 'ssml' | 'dialogue' | 'options'> &
    Partial<Pick<StudioState, 'customVoices'>>,
): { input_text: string; problem?: undefined } | InputProblem {
  const { text, ssml, dialogue, options } = state;
  if (text.trim() === '') return { problem: { message: messages.empty } };
  if (ssml) {
    if (!isSsml(text)) {
      return { problem: { message: messages.noSpeak } };
    }
    return ssmlProblem(text, state) ?? { input_text: text };
  }
  if (isSsml(text)) {
    return { problem: { message: messages.speakInPlain } };
  }
  if (!hasSpeakableContent(text)) return { problem: NOTHING_TO_SPEAK_MESSAGE, code: 'NOTHING_TO_SPEAK' };
  if (!dialogue.enabled) return { input_text: text };
  const generated = dialogueToSsml(text, { ...dialogue, narrator: options.voice_code });
  return { input_text: generated ?? text };
}

export const createComposeSlice: SliceCreator<ComposeSlice> =
  ({ storage, saveDelayMs = 300 }) =>
  (set, get) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const saveDialogue = (dialogue: DialogueSettings) => {
      set({ dialogue });
      storage.setItem(DIALOGUE_KEY, JSON.stringify(dialogue));
    };
    return {
      text: storage.getItem(DRAFT_KEY) ?? '',
      ssml: readJson<boolean>(storage, SSML_KEY) === true,
      dialogue: sanitiseDialogue(readJson<Partial<DialogueSettings>>(storage, DIALOGUE_KEY)),
      replacedDraft: readReplacedDraft(storage),
      setText(text) {
        const { text: before, ssml, dialogue, replacedDraft } = get();
        set({ text });
        // The old draft came back by itself (Ctrl+Z in the editor): nothing left to undo.
        if (replacedDraft && text === replacedDraft.text) get().dismissReplacedDraft();
        if (!ssml && isSsml(text) && !isSsml(before)) get().setSsml(true);
        if (Object.keys(dialogue.paragraphs).length > 0) {
          const paragraphs = remapParagraphVoices(before, text, dialogue.paragraphs);
          if (JSON.stringify(paragraphs) !== JSON.stringify(dialogue.paragraphs)) {
            saveDialogue({ ...dialogue, paragraphs });
          }
        }
        // Debounced: writing a 100,000-character chapter on every keystroke would stall typing.
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => storage.setItem(DRAFT_KEY, text), saveDelayMs);
      },
      rememberDraft(by) {
        const { text, ssml } = get();
        if (text.trim() === '') return;
        const replacedDraft: ReplacedDraft = { text, ssml, by };
        set({ replacedDraft });
        storage.setItem(REPLACED_DRAFT_KEY, JSON.stringify(replacedDraft));
      },
      takeReplacedDraft() {
        const { replacedDraft } = get();
        if (!replacedDraft) return undefined;
        get().dismissReplacedDraft();
        return replacedDraft;
      },
      dismissReplacedDraft() {
        set({ replacedDraft: null });
        storage.setItem(REPLACED_DRAFT_KEY, '');
      },
      setSsml(on) {
        set({ ssml: on });
        storage.setItem(SSML_KEY, JSON.stringify(on));
      },
      setDialogueEnabled(on) {
        saveDialogue({ ...get().dialogue, enabled: on });
      },
      setCharacterVoice(code) {
        saveDialogue(sanitiseDialogue({ ...get().dialogue, character: code }));
      },
      setParagraphVoice(index, code) {
        const paragraphs = { ...get().dialogue.paragraphs };
        if (code === null) delete paragraphs[index];
        else paragraphs[index] = code;
        saveDialogue(sanitiseDialogue({ ...get().dialogue, paragraphs }));
      },
      clearParagraphVoices() {
        saveDialogue({ ...get().dialogue, paragraphs: {} });
      },
      convertDialogueToSsml() {
        const { text, dialogue, options } = get();
        const generated = dialogueToSsml(text, { ...dialogue, narrator: options.voice_code });
        if (generated === undefined) return;
        get().setText(generated);
        get().setSsml(true);
        saveDialogue({ ...get().dialogue, enabled: false, paragraphs: {} });
      },
    };
  };
