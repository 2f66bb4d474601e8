import { useState } from 'react';
import type { LexiconEntry, LexiconEntryInput, LexiconKind } from '../../../../electron/shared/lexicon';
import { errorMessage } from '../../lib/api-client';
import { useClient } from '../../stores';
import type { LanguageCode } from '../../../../electron/shared/voices';

/**
 * A lexicon entry being written in the form: each field's value and setter, and the entry they
 * make (an abbreviation is always whole words, a unit's symbol always as written).
 */
export function useEntryDraft(initial: Partial<LexiconEntryInput>) {
  const [language, setLanguage] = useState<LanguageCode>(initial.language ?? 'en');
  const [match, setMatch] = useState(initial.match ?? '');
  const [kind, setKind] = useState<LexiconKind>(initial.kind ?? 'respell');
  const [replacement, setReplacement] = useState(initial.replacement ?? '');
  const [caseSensitive, setCaseSensitive] = useState(
    initial.case_sensitive ?? initial.kind === 'abbreviation',
  );
  const [wholeWord, setWholeWord] = useState(initial.whole_word ?? true);
  const [note, setNote] = useState(initial.note ?? '');

  /** A new abbreviation matches the case written unless the user unticks it; a unit always does. */
  const chooseKind = (next: LexiconKind) => {
    if (next === 'abbreviation' && kind !== 'abbreviation') setCaseSensitive(true);
    setKind(next);
  };
  const draft: LexiconEntryInput = {
    language,
    match,
    kind,
    replacement,
    case_sensitive: kind === 'unit' ? true : caseSensitive,
    whole_word: kind === 'abbreviation' || kind === 'unit' ? true : wholeWord,
    ...(note.trim() ? { note } : {}),
  };
  return {
    draft,
    complete: match.trim() !== '' && replacement.trim() !== '',
    language,
    setLanguage,
    match,
    setMatch,
    kind,
    chooseKind,
    replacement,
    setReplacement,
    caseSensitive,
    setCaseSensitive,
    wholeWord,
    setWholeWord,
    note,
    setNote,
  };
}

/** Saves the draft (as a change of `editing`, else a new entry); `error` is the server's refusal. */
export function useEntrySave(
  editing: LexiconEntry | undefined,
  draft: LexiconEntryInput,
  onSaved: (entry: LexiconEntry) => void,
) {
  const client = useClient();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setError(null);
    setSaving(true);
    try {
      const { entry } = editing
        ? await client.updateLexiconEntry(editing.id, draft)
        : await client.addLexiconEntry(draft);
      onSaved(entry);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  return { save, saving, error };
}
