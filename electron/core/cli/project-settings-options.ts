/**
 * The spoken-structure options of `project import` and `project set`: whether chapters start with
 * their heading read aloud, whether the book has opening and closing credits, and the credits'
 * words (the API's ProjectSettings fields of the same names). An empty text gives the words back
 * to the project (the credits made from its title, author, narrator and copyright).
 */

import { ProjectSettingsSchema } from '../../shared/projects';
import type { SpokenStructureSettings } from '../projects';
import { UsageError } from './usage';

/** parseArgs options (with allowNegative: --no-speak-headings, --no-credits). */
export const SPOKEN_STRUCTURE_OPTIONS = {
  'speak-headings': { type: 'boolean' },
  credits: { type: 'boolean' },
  'narrator-name': { type: 'string' },
  copyright: { type: 'string' },
  'opening-credits': { type: 'string' },
  'closing-credits': { type: 'string' },
} as const;

/** Usage lines for the options (after a command's own). */
export const SPOKEN_STRUCTURE_USAGE = `[--speak-headings | --no-speak-headings] [--credits | --no-credits]
                 [--narrator-name <name>] [--copyright <line>]
                 [--opening-credits <words>] [--closing-credits <words>]`;

const TEXT_FIELDS = [
  ['narrator-name', 'narrator_name'],
  ['copyright', 'copyright'],
  ['opening-credits', 'opening_credits'],
  ['closing-credits', 'closing_credits'],
] as const;

/** The settings the command line gives (none given: {}); a text too long is a UsageError. */
export function spokenStructureOptions(
  values: Record<string, string | boolean | undefined>,
): SpokenStructureSettings {
  const settings: SpokenStructureSettings = {};
  if (typeof values['speak-headings'] === 'boolean') settings.speak_headings = values['speak-headings'];
  if (typeof values.credits === 'boolean') settings.credits = values.credits;
  for (const [option, field] of TEXT_FIELDS) {
    const text = values[option];
    if (typeof text !== 'string') continue;
    const maxLength = ProjectSettingsSchema.properties[field].anyOf[0].maxLength ?? Infinity;
    if (text.trim() && text.length > maxLength)
      throw new UsageError(`--${option} must be at most ${maxLength} characters`);
    settings[field] = text.trim() ? text : null;
  }
  return settings;
}
