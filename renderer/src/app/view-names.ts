import { defineMessages, type MessageDescriptor } from 'react-intl';
import type { View } from '../stores/ui-slice';

/** Each view's name: the sidebar's entry, and the view's part of the document title. */
export const VIEW_NAMES: Readonly<Record<View, MessageDescriptor>> = defineMessages({
  projects: { id: 'app.nav.projects', defaultMessage: 'Projects' },
  studio: { id: 'app.nav.studio', defaultMessage: 'Studio' },
  voices: { id: 'app.nav.voices', defaultMessage: 'Voices' },
  library: { id: 'app.nav.library', defaultMessage: 'Voice library' },
  lexicon: { id: 'app.nav.lexicon', defaultMessage: 'Lexicon' },
  reading: { id: 'app.nav.reading', defaultMessage: 'How it will be read' },
  export: { id: 'app.nav.export', defaultMessage: 'Export' },
  history: { id: 'app.nav.history', defaultMessage: 'History' },
  callbacks: { id: 'app.nav.callbacks', defaultMessage: 'Callbacks' },
  api: { id: 'app.nav.api', defaultMessage: 'API' },
  settings: { id: 'app.nav.settings', defaultMessage: 'Settings' },
});
