/** Messages the Voices view's catalogue cards and Your voices' cards share. */

import { defineMessages } from 'react-intl';

type NameAndCode = { name: string; code: string };

/** The Use button of a voice card (the catalogue's and Your voices'). */
export const USE_LABELS = defineMessages({
  use: { id: 'voices.use', defaultMessage: 'Use' },
  inUse: { id: 'voices.inUse', defaultMessage: 'In use' },
});

/** The accessible names of a voice card's buttons, with the voice's name and code. */
export const CARD_LABELS = defineMessages<
  Record<'useLabel' | 'inUseLabel' | 'audition', NameAndCode> & Record<'copyCode', { code: string }>
>({
  useLabel: { id: 'voices.use.label', defaultMessage: 'Use {name} ({code})' },
  inUseLabel: { id: 'voices.inUse.label', defaultMessage: 'In use: {name} ({code})' },
  /** Completes the audition button's "Play …" / "Stop …". */
  audition: { id: 'voices.audition.label', defaultMessage: 'a sample of {name} ({code})' },
  copyCode: { id: 'voices.copyCode', defaultMessage: 'Copy code {code}' },
});

/** A voice's gender, as a badge shows it. */
export const GENDER_LABELS = defineMessages({
  female: { id: 'voices.gender.female', defaultMessage: 'female' },
  male: { id: 'voices.gender.male', defaultMessage: 'male' },
});
