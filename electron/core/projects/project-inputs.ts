/** What callers give the project service's edits (the API's bodies, checked by the routes). */

import type { ChapterRow } from '../store';
import type { QuoteVoice } from '../../shared/projects';
import type { SpokenStructureSettings } from './spoken-structure';

export interface SegmentEdit {
  text?: string;
  /** A character id; null: the narrator. */
  speaker?: string | null;
  quotes?: QuoteVoice[];
  flag_note?: string | null;
}

export interface ChapterEdit {
  title?: string;
  included?: boolean;
  kind?: ChapterRow['kind'];
  /** null or empty: made from the title again. */
  spoken_heading?: string | null;
}

export interface CharacterInput {
  name?: string;
  voice_code?: string;
  speed_rate?: number;
  pitch_rate?: number;
  volume?: number;
  confirmed?: boolean;
}

/** Settings a new project from a file may be given (over what the manuscript says). */
export interface ImportOverrides extends SpokenStructureSettings {
  title?: string;
  author?: string;
  voice_code?: string;
  language?: string;
}
