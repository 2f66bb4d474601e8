/**
 * Listeners of requests' audio as it is rendered (an OpenAI caller streaming it), by request id,
 * registered before or while the request renders.
 */

import type { RequestRow } from '../store';
import type { AudioListener } from './request-rendering';

export interface AudioListenersOptions {
  /** The render of a request here, if one runs: whether its audio has started flowing. */
  running(requestId: string): { audioStarted: boolean } | undefined;
  /** A request's status in the store. */
  status(requestId: string): Promise<RequestRow['status'] | undefined>;
  /** Settles once the claim under way (if any) has started its render. */
  settled(): Promise<void>;
}

export function createAudioListeners(options: AudioListenersOptions) {
  const listeners = new Map<string, Set<AudioListener>>();
  /** Adds a listener; the function returned removes it. */
  const add = (requestId: string, listener: AudioListener): (() => void) => {
    let set = listeners.get(requestId);
    if (!set) listeners.set(requestId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && listeners.get(requestId) === set) listeners.delete(requestId);
    };
  };
  return {
    /** The listeners of a request now. */
    of: (requestId: string): Iterable<AudioListener> => listeners.get(requestId) ?? [],
    /**
     * Hears a request's audio from its first sample (JobRunner.listen): undefined when that is
     * no longer possible (its audio has started flowing, it renders elsewhere or has finished).
     */
    async listen(requestId: string, listener: AudioListener): Promise<(() => void) | undefined> {
      const entry = options.running(requestId);
      if (entry?.audioStarted) return undefined;
      // Registered at once, before any wait: a render that starts meanwhile reaches it from its
      // first sample.
      const unlisten = add(requestId, listener);
      if (entry) return unlisten;
      const status = await options.status(requestId);
      if (status === 'processing' && !options.running(requestId)) await options.settled();
      // Queued, or claimed here meanwhile: heard. Rendering elsewhere or finished: read the file.
      if (status === 'new' || options.running(requestId)) return unlisten;
      unlisten();
      return undefined;
    },
  };
}
