import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api-client';
import { cuesFromSrt, type Cue } from '../../lib/subtitles';
import { useClient } from '../../stores';

/** A chapter of the text (a heading, a [chapter: …] line), seconds from the start. */
export type ResultChapter = { start: number; title: string };

/** The subtitle cues (from the request's SRT, if any) and the chapters of one result. */
export function useResultTimeline(requestId: string, srtLink: string | null) {
  const client = useClient();
  const [cues, setCues] = useState<Cue[]>([]);
  const [chapters, setChapters] = useState<ResultChapter[]>([]);
  const [srtError, setSrtError] = useState<string | null>(null);

  useEffect(() => {
    if (!srtLink) return;
    let live = true;
    client.fetchText(srtLink).then(
      (text) => live && setCues(cuesFromSrt(text)),
      (error: unknown) => live && setSrtError(errorMessage(error)),
    );
    return () => {
      live = false;
    };
  }, [client, srtLink]);

  useEffect(() => {
    let live = true;
    // A text without chapter lines has none; a failure only loses the chapter marks.
    client.requestChapters(requestId).then(
      (list) => live && setChapters(list.items.map((c) => ({ start: c.start_ms / 1000, title: c.title }))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, requestId]);

  return { cues, chapters, srtError };
}
