import type { ReactElement } from 'react';
import type { View } from '../stores/ui-slice';

/**
 * One line icon per view for the sidebar (shown alone when the window is narrow). Drawn on a
 * 24 × 24 grid in the text colour; decorative: the button's label names the view.
 */
const PATHS: Record<View, ReactElement> = {
  projects: (
    <>
      <path d="M4 5.5A1.5 1.5 0 0 1 5.5 4H10l2 2h6.5A1.5 1.5 0 0 1 20 7.5v11a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 18.5z" />
    </>
  ),
  studio: (
    <>
      <rect x="9" y="3" width="6" height="11" rx="3" />
      <path d="M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V21M8.5 21h7" />
    </>
  ),
  voices: (
    <>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M3 20c0-3.3 2.7-6 6-6s6 2.7 6 6M17 6.5c1.2 1.2 1.2 3.8 0 5M19.5 4c2.5 2.6 2.5 7.4 0 10" />
    </>
  ),
  library: (
    <>
      <path d="M4 4h4v16H4zM10 4h4v16h-4zM16.2 4.8l3.8-1 3.8 15.4-3.8 1z" transform="translate(-1 0)" />
    </>
  ),
  lexicon: (
    <>
      <path d="M5 4.5A1.5 1.5 0 0 1 6.5 3H19v15H6.5A1.5 1.5 0 0 0 5 19.5zM5 19.5A1.5 1.5 0 0 0 6.5 21H19v-3" />
      <path d="M9 8h6M9 11.5h4" />
    </>
  ),
  reading: (
    <>
      <path d="M3.5 6h10M3.5 10h7M3.5 14h9M3.5 18h6" />
      <path d="M16.5 9c1.2 1.2 1.2 4.8 0 6M19 6.5c2.4 2.6 2.4 8.4 0 11" />
    </>
  ),
  export: (
    <>
      <path d="M12 3v12M7.5 7.5 12 3l4.5 4.5M4 14v5a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-5" />
    </>
  ),
  history: (
    <>
      <path d="M3.5 12a8.5 8.5 0 1 0 2.5-6L3.5 8.5M3.5 4v4.5H8" />
      <path d="M12 7.5V12l3 2" />
    </>
  ),
  callbacks: (
    <>
      <path d="M4 12h9M10 8l4 4-4 4" />
      <path d="M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4" />
    </>
  ),
  api: (
    <>
      <path d="m8 7-5 5 5 5M16 7l5 5-5 5M13.5 4l-3 16" />
    </>
  ),
  settings: (
    <>
      <circle cx="12" cy="12" r="3" />
      <path d="M12 2.5v3M12 18.5v3M2.5 12h3M18.5 12h3M5.3 5.3l2.1 2.1M16.6 16.6l2.1 2.1M5.3 18.7l2.1-2.1M16.6 7.4l2.1-2.1" />
    </>
  ),
};

export function NavIcon({ view }: { view: View }) {
  return (
    <svg
      className="nav-icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.7"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {PATHS[view]}
    </svg>
  );
}
