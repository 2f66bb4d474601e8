/**
 * The document title, which every tab, Back/Forward entry and bookmark shows:
 * "<item> – <view> – Narration Studio", or "<view> – Narration Studio" with no open item, in the
 * interface's language (the view's name is the sidebar's). `useDocumentTitle` is the one place
 * that sets it.
 */

import { useLayoutEffect } from 'react';
import { defineMessages, useIntl, type IntlShape } from 'react-intl';
import { useStudio } from '../stores';
import type { View } from '../stores/ui-slice';
import { VIEW_NAMES } from './view-names';

const m = defineMessages<{
  view: { view: string; app: string };
  item: { item: string; view: string; app: string };
  request: { id: string };
  signedOut: { app: string };
}>({
  view: { id: 'app.title.view', defaultMessage: '{view} – {app}' },
  item: { id: 'app.title.item', defaultMessage: '{item} – {view} – {app}' },
  request: { id: 'app.title.request', defaultMessage: 'Request {id}' },
  signedOut: { id: 'app.title.signedOut', defaultMessage: 'Sign in – {app}' },
});

/** The product's name, the same in every language. */
export const APP_NAME = 'Narration Studio';

/** What is open in a view, as the title names it. */
export type TitleItem = { kind: 'project'; title: string } | { kind: 'request'; id: string } | null;

/** A request's id, short enough for a tab (its first 8 characters). */
const REQUEST_ID_SHOWN = 8;

/** The document title of a view and its open item (null: none). */
export function documentTitle(intl: Pick<IntlShape, 'formatMessage'>, view: View, item: TitleItem): string {
  const viewName = intl.formatMessage(VIEW_NAMES[view]);
  const itemName =
    item === null
      ? ''
      : item.kind === 'project'
        ? item.title.trim()
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
  useLayoutEffect(() => {
    if (!signedIn) {
      document.title = signedOutTitle(intl);
      return;
    }
    const item: TitleItem =
      projectTitle !== null
        ? { kind: 'project', title: projectTitle }
        : requestId !== null
          ? { kind: 'request', id: requestId }
          : null;
    document.title = documentTitle(intl, view, item);
  }, [intl, signedIn, view, projectTitle, requestId]);
}
