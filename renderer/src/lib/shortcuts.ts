/**
 * The studio's keyboard map, in one place: each shortcut's keys, where it works and what it does
 * (as messages). The views' handlers match keys through `matchesShortcut` and `useShortcut`, and
 * the help dialog (`?`) lists SHORTCUTS, so the list and the behaviour cannot drift apart.
 */

import { useEffect, useRef, type RefObject } from 'react';
import { defineMessages, type MessageDescriptor } from 'react-intl';

export type ShortcutId = 'generate' | 'render' | 'speak' | 'reading' | 'undo' | 'redo' | 'help';

/** One key press: the key (`KeyboardEvent.key`) and the modifiers it needs. */
export interface KeyCombo {
  key: string;
  /** Ctrl, or Cmd (⌘) on macOS. */
  primary?: boolean;
  shift?: boolean;
}

export interface Shortcut {
  id: ShortcutId;
  /** Any of these presses (Ctrl+Shift+Z or Ctrl+Y). */
  keys: readonly KeyCombo[];
  /** Where it works. */
  where: MessageDescriptor;
  /** What it does. */
  does: MessageDescriptor;
  /** Not while the keyboard is in a text field (whose own keys these are: undo, `?`). */
  notInTextField?: boolean;
}

const m = defineMessages({
  whereStudio: { id: 'shortcuts.where.studio', defaultMessage: 'Studio, from any field' },
  whereProject: { id: 'shortcuts.where.project', defaultMessage: 'An open project, from any field' },
  whereWorkbench: {
    id: 'shortcuts.where.workbench',
    defaultMessage: 'Voices, from any field of the workbench',
  },
  whereReading: { id: 'shortcuts.where.reading', defaultMessage: 'How it will be read, in the text' },
  whereProjectEdits: {
    id: 'shortcuts.where.projectEdits',
    defaultMessage: 'An open project, outside a text field',
  },
  whereEverywhere: { id: 'shortcuts.where.everywhere', defaultMessage: 'Everywhere, outside a text field' },
  generate: { id: 'shortcuts.does.generate', defaultMessage: 'Generate' },
  render: { id: 'shortcuts.does.render', defaultMessage: 'Render the open chapter' },
  speak: { id: 'shortcuts.does.speak', defaultMessage: 'Speak with the voices of the comparison' },
  reading: { id: 'shortcuts.does.reading', defaultMessage: 'Show how the text will be read' },
  undo: { id: 'shortcuts.does.undo', defaultMessage: 'Undo the last edit' },
  redo: { id: 'shortcuts.does.redo', defaultMessage: 'Redo the edit undone' },
  help: { id: 'shortcuts.does.help', defaultMessage: 'Show these keyboard shortcuts' },
});

const PRIMARY_ENTER: readonly KeyCombo[] = [{ key: 'Enter', primary: true }];

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'generate', keys: PRIMARY_ENTER, where: m.whereStudio, does: m.generate },
  { id: 'render', keys: PRIMARY_ENTER, where: m.whereProject, does: m.render },
  { id: 'speak', keys: PRIMARY_ENTER, where: m.whereWorkbench, does: m.speak },
  { id: 'reading', keys: PRIMARY_ENTER, where: m.whereReading, does: m.reading },
  {
    id: 'undo',
    keys: [{ key: 'z', primary: true }],
    where: m.whereProjectEdits,
    does: m.undo,
    notInTextField: true,
  },
  {
    id: 'redo',
    keys: [
      { key: 'z', primary: true, shift: true },
      { key: 'y', primary: true },
    ],
    where: m.whereProjectEdits,
    does: m.redo,
    notInTextField: true,
  },
  { id: 'help', keys: [{ key: '?' }], where: m.whereEverywhere, does: m.help, notInTextField: true },
];

export const shortcut = (id: ShortcutId): Shortcut => SHORTCUTS.find((s) => s.id === id)!;

/** The key presses of a keyboard event that matter here. */
export type KeyPress = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>;

/**
 * True when the press is one of the combo's: Ctrl or Cmd for `primary`, Shift as asked (a key
 * typed with Shift, such as `?`, takes it as it comes), never Alt.
 */
export function matchesCombo(combo: KeyCombo, e: KeyPress): boolean {
  if (e.altKey) return false;
  if (e.key.toLowerCase() !== combo.key.toLowerCase()) return false;
  if (!!combo.primary !== (e.ctrlKey || e.metaKey)) return false;
  // Letters and Enter say whether Shift is part of the shortcut; `?` needs Shift on most layouts.
  if (/^[a-z]$|^Enter$/i.test(combo.key) && !!combo.shift !== e.shiftKey) return false;
  return true;
}

/** True when the press is one of the shortcut's. */
export const matchesShortcut = (id: ShortcutId, e: KeyPress): boolean =>
  shortcut(id).keys.some((combo) => matchesCombo(combo, e));

/** True when the keyboard is in a field that takes typed text (whose own keys stay its own). */
export function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  if (el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName !== 'INPUT') return false;
  const type = (el as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'file', 'color'].includes(type);
}

/** True on macOS (and iOS), where the primary modifier is Cmd. */
export const isMac = (
  platform: string = typeof navigator === 'undefined' ? '' : navigator.platform,
): boolean => /Mac|iPhone|iPad/i.test(platform);

/** A combo as a list of key names (`['Ctrl', 'Enter']`, `['⌘', 'Shift', 'Z']`, `['?']`). */
export function comboKeys(combo: KeyCombo, mac: boolean = isMac()): string[] {
  const keys: string[] = [];
  if (combo.primary) keys.push(mac ? '⌘' : 'Ctrl');
  if (combo.shift) keys.push('Shift');
  keys.push(combo.key.length === 1 ? combo.key.toUpperCase() : combo.key);
  return keys;
}

/**
 * Runs `action` on the shortcut's keys, from anywhere in the page (fields included, unless the
 * shortcut keeps out of text fields; only inside `scope` when given) while `enabled`; not while a
 * modal dialog is open (it answers its own keys), not on a repeated press, not when a field
 * already used the press.
 */
export function useShortcut(
  id: ShortcutId,
  action: () => void,
  enabled = true,
  /** Only from inside this element (or with the focus nowhere in particular). */
  scope?: RefObject<HTMLElement | null>,
): void {
  const latest = useRef(action);
  // The newest action, without adding and removing the listener on every render.
  useEffect(() => {
    latest.current = action;
  });
  useEffect(() => {
    if (!enabled) return;
    const { notInTextField } = shortcut(id);
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat || !matchesShortcut(id, e)) return;
      if (notInTextField && typingIn(e.target)) return;
      const within = scope?.current;
      if (within && e.target instanceof Node && e.target !== document.body && !within.contains(e.target))
        return;
      if (document.querySelector('dialog[open]')) return;
      e.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [id, enabled, scope]);
}
