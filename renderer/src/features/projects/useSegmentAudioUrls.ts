import { useCallback, useRef, type RefObject } from 'react';
import type { SegmentRecord } from '../../../../electron/shared/projects';
import { useProjectsApi } from '../../stores';

/** What makes a segment's audio differ from the kept copy. */
const audioKey = (s: SegmentRecord) => `${s.id}|${s.state}|${s.duration_ms ?? ''}`;

/**
 * The chapter player's audio: each segment's WAV fetched with the studio's session and kept as
 * an object URL (the one playing and a few more; the one in `audioRef` is never revoked).
 */
export function useSegmentAudioUrls(projectId: string, audioRef: RefObject<HTMLAudioElement | null>) {
  const api = useProjectsApi();
  const cache = useRef(new Map<string, Promise<string>>());

  /** The object URL of a segment's WAV (fetched once per audio version; at most 4 kept). */
  const urlOf = useCallback(
    (segment: SegmentRecord) => {
      const key = audioKey(segment);
      let url = cache.current.get(key);
      if (!url) {
        url = api.segmentAudio(projectId, segment.id).then((blob) => URL.createObjectURL(blob));
        // A failed fetch is not kept: the next play asks again.
        url.catch(() => cache.current.delete(key));
        cache.current.set(key, url);
        while (cache.current.size > 4) {
          const [oldest, value] = cache.current.entries().next().value!;
          cache.current.delete(oldest);
          void value.then(
            (u) => {
              if (audioRef.current?.src !== u) URL.revokeObjectURL(u);
            },
            () => undefined,
          );
        }
      }
      return url;
    },
    [api, projectId, audioRef],
  );

  /** Drops the kept audio of a segment (it was rendered again). */
  const forget = useCallback((segmentId: string) => {
    for (const key of [...cache.current.keys()])
      if (key.startsWith(`${segmentId}|`)) cache.current.delete(key);
  }, []);

  /** Revokes and drops every kept URL (another chapter, or the player goes). */
  const clear = useCallback(() => {
    const kept = cache.current;
    for (const url of kept.values())
      void url.then(
        (u) => URL.revokeObjectURL(u),
        () => undefined,
      );
    kept.clear();
  }, []);

  return { urlOf, forget, clear };
}
