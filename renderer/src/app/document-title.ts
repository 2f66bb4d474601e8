/**
 * The document title, which every tab, Back/Forward entry and bookmark shows:
 * "<item> – <view> – Narration Studio", or "<view> – Narration Studio" with no open item, in the
 * interface's language (the view's name is the sidebar's). `useDocumentTitle` is the one place
 * that sets it.
 */

import { useLayoutEffect } from 'react';
import { spokenWords } from '../../../electron/shared/download-name';
import { defineMessages, useIntl, type IntlShape } from 'react-intl';
import { useStudio } from '../stores';
import type { View } from '../stores/ui-slice';
import { VIEW_NAMES } from './view-names';

const m = defineMessages<{
  view: { view: string; app: string };
  item: { item: string; view: string; app: string };
  request: { id: string };
  requestText: { text: string };
  signedOut: { app: string };
}>({
  view: { id: 'app.title.view', defaultMessage: '{view} – {app}' },
  item: { id: 'app.title.item', defaultMessage: '{item} – {view} – {app}' },
  request: { id: 'app.title.request', defaultMessage: 'Request {id}' },
  requestText: { id: 'app.title.requestText', defaultMessage: '“{text}”' },
  signedOut: { id: 'app.title.signedOut', defaultMessage: 'Sign in – {app}' },
});

/** The product's name, the same in every language. */
export const APP_NAME = 'Narration Studio';

/** What is open in a view, as the title names it. */
export type TitleItem =
  | { kind: 'project'; title: string }
  /** A request: by the start of its text once read, else by its short id. */
  | { kind: 'request'; id: string; text?: string | null }
  | null;

/** A request's id, short enough for a tab (its first 8 characters). */
const REQUEST_ID_SHOWN = 8;
/** A request's text in a tab: about this many characters, cut between words. */
const REQUEST_TEXT_SHOWN = 40;

/** The start of a request's text (an SSML document's spoken words), cut between words with an ellipsis. */
export function textStart(text: string, max = REQUEST_TEXT_SHOWN): string {
  const plain = spokenWords(text).replace(/\s+/g, ' ').trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : plain.slice(0, max)).replace(/[\s,.;:!?]+$/, '')}…`;
}

/** The document title of a view and its open item (null: none). */
export function documentTitle(intl: Pick<IntlShape, 'formatMessage'>, view: View, item: TitleItem): string {
  const viewName = intl.formatMessage(VIEW_NAMES[view]);
  const itemName =
    item === null
      ? ''
      : item.kind === 'project'
        ? item.title.trim()
        : item.text && textStart(item.text) !== ''
          ? intl.formatMessage(m.requestText, { text: textStart(item.text) })
          : intl.formatMessage(m.request, { id: item.id.slice(0, REQUEST_ID_SHOWN) });
  return itemName === ''
    ? intl.formatMessage(m.view, { view: viewName, app: APP_NAME })
    : intl.formatMessage(m.item, { item: itemName, view: viewName, app: APP_NAME });
}

/** The title before signing in. */
export const signedOutTitle = (intl: Pick<IntlShape, 'formatMessage'>): string =>
  intl.formatMessage(m.signedOut, { app: APP_NAME });

/**
 * Keeps document.title on what the studio shows: set as soon as the view, the open project or the
 * selected request changes (before the browser paints), so the history entry each change makes
 * carries its own title and Back shows the previous one.
 */
export function useDocumentTitle(signedIn: boolean): void {
  const intl = useIntl();
  const view = useStudio((s) => s.view);
  const projectTitle = useStudio((s) => (s.view === 'projects' ? (s.project?.project.title ?? null) : null));
  const requestId = useStudio((s) => (s.view === 'history' ? s.historyRequestId : null));
  const requestText = useStudio((s) => s.historyRequestText);
  useLayoutEffect(() => {
    if (!signedIn) {
      document.title = signedOutTitle(intl);
      return;
    }
    const item: TitleItem =
      projectTitle !== null
        ? { kind: 'project', title: projectTitle }
        : requestId !== null
          ? { kind: 'request', id: requestId, text: requestText }
          : null;
    document.title = documentTitle(intl, view, item);
  }, [intl, signedIn, view, projectTitle, requestId, requestText]);
}
