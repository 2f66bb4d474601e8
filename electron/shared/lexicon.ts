/**
 * The pronunciation lexicon: per-language entries that say how to speak a word or phrase, as a
 * respelling or as IPA. Wire records (TypeBox schemas, used as types) and the rules every entry
 * obeys, shared by the server, the CLI, the engine (types only) and the UI.
 *
 * Matching rules (applied by the engine, `core/engine/text/lexicon.ts`): an entry matches its
 * `match` text in the language's texts, ignoring case unless `case_sensitive`, only as whole
 * words (not inside a longer word) unless `whole_word` is false; any run of spaces in the text
 * matches the single spaces of a phrase, and ’ matches '. Where matches overlap, the longest
 * wins, then the earliest, then a case-sensitive entry over one that is not. What is spoken
 * instead is `replacement`: a respelling read as text, or IPA converted to eSpeak's phonemes
 * (`./lexicon-ipa`). Subtitles and word timings keep the original words.
 */

import { Type, type Static } from '@sinclair/typebox';
import { ipaToEspeak, type IpaErrorReason } from './lexicon-ipa';
import { unitForms, WORDY } from './lexicon-units';
import { RATE_MAX, RATE_MIN, VOLUME_MAX, VOLUME_MIN } from './options';
import { LANGUAGE_CODES } from './languages';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

/**
 * `respell`: the replacement is text to read; `ipa`: it is IPA phonemes; `abbreviation`: the
 * match is an abbreviation ("Cty", "Cty.") and the replacement its words ("công ty"), matched
 * as a whole word with or without a final full stop; `unit`: the match is a unit's symbol
 * ("kn") and the replacement its words after a number, "one|many" ("knot|knots"; one form when
 * the language has one: "hải lý"), read by the language's measure rules, never on its own.
 */
export const LEXICON_KINDS = ['respell', 'ipa', 'abbreviation', 'unit'] as const;
export type LexiconKind = (typeof LEXICON_KINDS)[number];
/** File formats of import and export. */
export const LEXICON_FORMATS = ['json', 'csv', 'pls'] as const;
export type LexiconFormat = (typeof LEXICON_FORMATS)[number];

/** Characters of `match` at most. */
export const MAX_MATCH_CHARS = 200;
/** Characters of `replacement` at most. */
export const MAX_REPLACEMENT_CHARS = 500;
/** Characters of `note` at most. */
export const MAX_NOTE_CHARS = 500;
/** Characters of a unit's symbol (`match` of a `unit` entry) at most. */
export const MAX_UNIT_SYMBOL_CHARS = 20;
/** Entries in the whole lexicon at most. */
export const MAX_LEXICON_ENTRIES = 10_000;

/** An entry as a client writes it (POST, PUT, import); defaults: case-insensitive, whole words. */
export const LexiconEntryInputSchema = Type.Object({
  language: literals(LANGUAGE_CODES),
  /** The word or phrase as it is written in texts (an abbreviation, a unit's symbol). */
  match: Type.String({ minLength: 1, maxLength: MAX_MATCH_CHARS }),
  kind: literals(LEXICON_KINDS),
  /** What to say instead: a respelling, IPA (e.g. "ʃɪˈvɔːn"), an abbreviation's words, a unit's "one|many". */
  replacement: Type.String({ minLength: 1, maxLength: MAX_REPLACEMENT_CHARS }),
  /**
   * Match only this exact capitalisation (default false; an abbreviation's default is true; a
   * unit's symbol is always matched as written).
   */
  case_sensitive: Type.Optional(Type.Boolean()),
  /** Match only whole words, never inside a longer word (default true; abbreviations and units always are). */
  whole_word: Type.Optional(Type.Boolean()),
  note: Type.Optional(Type.String({ maxLength: MAX_NOTE_CHARS })),
});
export type LexiconEntryInput = Static<typeof LexiconEntryInputSchema>;

/** A stored entry. */
export const LexiconEntrySchema = Type.Object({
  id: Type.String(),
  language: literals(LANGUAGE_CODES),
  match: Type.String(),
  kind: literals(LEXICON_KINDS),
  replacement: Type.String(),
  case_sensitive: Type.Boolean(),
  whole_word: Type.Boolean(),
  note: Type.Optional(Type.String()),
});
export type LexiconEntry = Static<typeof LexiconEntrySchema>;

/**
 * The lexicon: its entries and its version, a counter that grows with every change (add, edit,
 * remove, import), so whatever keeps speech made with the lexicon can tell it is out of date.
 */
export const LexiconSchema = Type.Object({
  version: Type.Integer({ minimum: 0 }),
  items: Type.Array(LexiconEntrySchema),
});
export type Lexicon = Static<typeof LexiconSchema>;

/** Query of GET /api/v1/lexicon: one language, and/or entries whose match, replacement or note contain `q`. */
export const LexiconQuerySchema = Type.Object({
  language: Type.Optional(literals(LANGUAGE_CODES)),
  q: Type.Optional(Type.String({ maxLength: 200 })),
});
export type LexiconQuery = Static<typeof LexiconQuerySchema>;

/** Answer of POST and PUT /api/v1/lexicon…: the entry as stored and the lexicon's new version. */
export const LexiconChangeSchema = Type.Object({ version: Type.Integer(), entry: LexiconEntrySchema });
export type LexiconChange = Static<typeof LexiconChangeSchema>;

/** Answer of DELETE /api/v1/lexicon/<id>. */
export const LexiconRemovalSchema = Type.Object({ version: Type.Integer(), id: Type.String() });
export type LexiconRemoval = Static<typeof LexiconRemovalSchema>;

/** Query of GET /api/v1/lexicon/export. PLS holds one language, so it needs `language`. */
export const LexiconExportQuerySchema = Type.Object({
  format: Type.Optional(literals(LEXICON_FORMATS)),
  language: Type.Optional(literals(LANGUAGE_CODES)),
});
export type LexiconExportQuery = Static<typeof LexiconExportQuerySchema>;

/** Body of POST /api/v1/lexicon/import: a file's text and its format. */
export const LexiconImportBodySchema = Type.Object({
  format: literals(LEXICON_FORMATS),
  text: Type.String(),
  /** For PLS: the language of its entries, instead of the file's xml:lang. */
  language: Type.Optional(literals(LANGUAGE_CODES)),
  /**
   * true: the file's entries replace those of its languages (entries of other languages stay);
   * default false: they are merged in.
   */
  replace: Type.Optional(Type.Boolean()),
});
export type LexiconImportBody = Static<typeof LexiconImportBodySchema>;

/** Answer of an import: how many entries were added, changed (same language and match), left as they were. */
export const LexiconImportResultSchema = Type.Object({
  version: Type.Integer(),
  added: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  /** Entries of the file's languages removed by `replace`. */
  removed: Type.Integer(),
});
export type LexiconImportResult = Static<typeof LexiconImportResultSchema>;

/** Body of POST /api/v1/lexicon/<id>/preview: the voice to speak with (of the entry's language), and prosody. */
export const LexiconPreviewBodySchema = Type.Object({
  voice_code: Type.Optional(Type.String()),
  /** `with` (default): the entry's match spoken with the entry; `without`: as the engine reads it alone. */
  variant: Type.Optional(literals(['with', 'without'] as const)),
  speed_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  pitch_rate: Type.Optional(Type.Number({ minimum: RATE_MIN, maximum: RATE_MAX })),
  volume: Type.Optional(Type.Integer({ minimum: VOLUME_MIN, maximum: VOLUME_MAX })),
});
export type LexiconPreviewBody = Static<typeof LexiconPreviewBodySchema>;

/** A problem with one field of an entry, for a 400 answer or an import error. */
export interface EntryProblem {
  field: keyof LexiconEntryInput;
  message: string;
  /** IPA that cannot be read: why, the symbol and its 1-based position (sent as `error_details`). */
  ipa?: { reason: IpaErrorReason; symbol?: string; position: number };
}

/** Characters a respelling may not hold: the engine reads markup with `<` `>` `&` and phonemes in `[[ ]]`. */
const RESPELL_FORBIDDEN = /[<>&[\]]/u;

/** The match as stored: NFC, trimmed, inner runs of spaces as one space. */
export function normaliseMatch(match: string): string {
  return match.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

/** A unit's symbol: no space, not starting with a digit (it follows one), holding a letter or symbol. */
const UNIT_SYMBOL = /^(?!\p{N})[^\s]*[\p{L}\p{S}%‰‱][^\s]*$/u;

/**
 * An input made ready to store: strings normalised (NFC, trimmed), defaults applied. Returns
 * the first problem instead when the entry breaks a rule: an empty match or one without a
 * letter or digit, a respelling (or an abbreviation's words, a unit's forms) with nothing to
 * say or with `< > & [ ]`, IPA that cannot be converted for the language (`ipaToEspeak`'s
 * message, naming the symbol and its place), an abbreviation that is not a whole word
 * (`whole_word: false`), a unit whose symbol has a space or starts with a digit, or whose
 * replacement is not "one|many". Abbreviations are case-sensitive unless `case_sensitive` is
 * false; units are stored case-sensitive and whole-word (a symbol is read as written).
 * Field types and lengths are the schema's to check first (`LexiconEntryInputSchema`).
 */
export function prepareEntry(
  input: LexiconEntryInput,
): { ok: true; entry: Omit<LexiconEntry, 'id'> } | { ok: false; problem: EntryProblem } {
  const match = normaliseMatch(input.match);
  const replacement = input.replacement.normalize('NFC').trim().replace(/\s+/gu, ' ');
  const note = input.note?.normalize('NFC').trim();
  const fail = (field: EntryProblem['field'], message: string, ipa?: EntryProblem['ipa']) =>
    ({ ok: false, problem: { field, message, ...(ipa ? { ipa } : {}) } }) as const;
  let caseSensitive = input.case_sensitive ?? false;
  let wholeWord = input.whole_word ?? true;
  if (input.kind === 'unit') {
    if (match.length > MAX_UNIT_SYMBOL_CHARS || !UNIT_SYMBOL.test(match))
      return fail(
        'match',
        `A unit is its symbol as written after a number ("kn", "m²"): no space, not starting with a digit, ${MAX_UNIT_SYMBOL_CHARS} characters at most.`,
      );
    caseSensitive = true;
    wholeWord = true;
  } else if (!WORDY.test(match)) return fail('match', 'match must hold a letter or digit.');
  if (input.kind === 'abbreviation') {
    if (input.whole_word === false)
      return fail('whole_word', 'An abbreviation matches whole words only: whole_word cannot be false.');
    caseSensitive = input.case_sensitive ?? true;
  }
  if (input.kind === 'ipa') {
    const converted = ipaToEspeak(replacement, input.language);
    if (!converted.ok) {
      const { reason, symbol, position } = converted;
      return fail('replacement', converted.message, { reason, position, ...(symbol ? { symbol } : {}) });
    }
  } else {
    const what = input.kind === 'respell' ? 'A respelling' : 'The replacement';
    if (!WORDY.test(replacement)) return fail('replacement', `${what} must hold a letter or digit.`);
    if (RESPELL_FORBIDDEN.test(replacement))
      return fail('replacement', `${what} may not hold < > & [ or ]: write the words instead.`);
    if (input.kind === 'unit' && !unitForms(replacement))
      return fail(
        'replacement',
        'A unit\'s words are "one|many" ("knot|knots"), or one form for both ("hải lý"), each with a letter or digit.',
      );
  }
  return {
    ok: true,
    entry: {
      language: input.language,
      match,
      kind: input.kind,
      replacement: input.kind === 'unit' ? replacement.replace(/\s*\|\s*/u, '|') : replacement,
      case_sensitive: caseSensitive,
      whole_word: wholeWord,
      ...(note ? { note } : {}),
    },
  };
}

/**
 * What makes two entries the same entry: language, case rule and match (case-folded unless
 * case-sensitive). Adding an entry with the key of another is refused; importing one updates it.
 */
export function entryKey(entry: Pick<LexiconEntry, 'language' | 'match' | 'case_sensitive'>): string {
  const match = normaliseMatch(entry.match);
  return `${entry.language}\u0000${entry.case_sensitive ? 'cs' : 'ci'}\u0000${entry.case_sensitive ? match : match.toLowerCase()}`;
}

/** Entries whose match, replacement or note contain `query` (case-insensitive), of `language` when given. */
export function filterEntries<T extends LexiconEntry>(
  entries: readonly T[],
  { language, q }: LexiconQuery,
): T[] {
  const query = q?.normalize('NFC').trim().toLowerCase() ?? '';
  return entries.filter(
    (e) =>
      (language === undefined || e.language === language) &&
      (query === '' || `${e.match}\n${e.replacement}\n${e.note ?? ''}`.toLowerCase().includes(query)),
  );
}
