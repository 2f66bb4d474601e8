/**
 * The keyboard map (renderer/src/lib/shortcuts.ts): which presses each shortcut takes, how its
 * keys are written on each platform, which fields keep their own keys, and that every entry of
 * the map has its words in both catalogues.
 */

import { describe, expect, it } from 'vitest';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';
import {
  comboKeys,
  isMac,
  matchesShortcut,
  SHORTCUTS,
  shortcut,
  typingIn,
  type KeyPress,
} from '../../renderer/src/lib/shortcuts';

const press = (key: string, mods: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('matchesShortcut', () => {
  it('takes Ctrl+Enter and Cmd+Enter for generate, not Enter, Shift or Alt with it', () => {
    expect(matchesShortcut('generate', press('Enter', { ctrlKey: true }))).toBe(true);
    expect(matchesShortcut('generate', press('Enter', { metaKey: true }))).toBe(true);
    expect(matchesShortcut('generate', press('Enter'))).toBe(false);
    expect(matchesShortcut('generate', press('Enter', { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(matchesShortcut('generate', press('Enter', { ctrlKey: true, altKey: true }))).toBe(false);
  });

  it('tells undo from redo (Ctrl+Z, Ctrl+Shift+Z whose key reads "Z", Ctrl+Y)', () => {
    expect(matchesShortcut('undo', press('z', { ctrlKey: true }))).toBe(true);
    expect(matchesShortcut('undo', press('Z', { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(matchesShortcut('redo', press('Z', { ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(matchesShortcut('redo', press('y', { metaKey: true }))).toBe(true);
    expect(matchesShortcut('redo', press('z', { ctrlKey: true }))).toBe(false);
  });

  it('takes `?` as typed (with Shift on most layouts), not with Ctrl', () => {
    expect(matchesShortcut('help', press('?', { shiftKey: true }))).toBe(true);
    expect(matchesShortcut('help', press('?'))).toBe(true);
    expect(matchesShortcut('help', press('?', { ctrlKey: true }))).toBe(false);
    expect(matchesShortcut('help', press('/'))).toBe(false);
  });
});

describe('comboKeys', () => {
  it('writes Ctrl on Windows and Linux, ⌘ on macOS', () => {
    expect(comboKeys(shortcut('generate').keys[0]!, false)).toEqual(['Ctrl', 'Enter']);
    expect(comboKeys(shortcut('generate').keys[0]!, true)).toEqual(['⌘', 'Enter']);
    expect(comboKeys(shortcut('redo').keys[0]!, false)).toEqual(['Ctrl', 'Shift', 'Z']);
    expect(comboKeys(shortcut('help').keys[0]!, false)).toEqual(['?']);
    expect(isMac('MacIntel')).toBe(true);
    expect(isMac('Linux x86_64')).toBe(false);
    expect(isMac('Win32')).toBe(false);
  });
});

describe('typingIn', () => {
  const el = (tagName: string, type?: string, isContentEditable = false) =>
    ({ tagName, type, isContentEditable }) as unknown as EventTarget;
  it('is true in text fields, number fields, text areas, selects and editable text', () => {
    expect(typingIn(el('INPUT', 'text'))).toBe(true);
    expect(typingIn(el('INPUT', 'number'))).toBe(true);
    expect(typingIn(el('INPUT', 'search'))).toBe(true);
    expect(typingIn(el('TEXTAREA'))).toBe(true);
    expect(typingIn(el('SELECT'))).toBe(true);
    expect(typingIn(el('DIV', undefined, true))).toBe(true);
  });
  it('is false on buttons, checkboxes, sliders and the page', () => {
    expect(typingIn(el('BUTTON'))).toBe(false);
    expect(typingIn(el('INPUT', 'checkbox'))).toBe(false);
    expect(typingIn(el('INPUT', 'range'))).toBe(false);
    expect(typingIn(el('BODY'))).toBe(false);
    expect(typingIn(null)).toBe(false);
  });
});

describe('SHORTCUTS', () => {
  it('has one entry per id, each with its words in English and Vietnamese', () => {
    expect(new Set(SHORTCUTS.map((s) => s.id)).size).toBe(SHORTCUTS.length);
    const english = en as Record<string, string>;
    const vietnamese = vi as Record<string, string>;
    for (const s of SHORTCUTS) {
      for (const message of [s.where, s.does]) {
        const id = message.id!;
        expect(english[id], id).toBe(message.defaultMessage);
        expect(vietnamese[id], id).toBeTruthy();
        expect(vietnamese[id], id).not.toBe(english[id]);
      }
    }
  });
});
