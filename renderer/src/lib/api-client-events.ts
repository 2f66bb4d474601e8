/** The server's event stream (Server-Sent Events on /api/v1/events), read into the handlers' calls. */

import type { DeliveryEvent, RequestEvent } from '../../../electron/shared/api';
import type { ExportEvent } from '../../../electron/shared/book-exports';
import type { ProjectEvent } from '../../../electron/shared/projects';
import type { VoicePackEvent } from '../../../electron/shared/voice-packs';
import type { ApiTransport, EventHandlers } from './api-client';

/** Reads the stream until it ends or `signal` aborts it; each event goes to its handler. */
export async function streamEvents(
  transport: ApiTransport,
  handlers: EventHandlers,
  signal: AbortSignal,
): Promise<void> {
  const response = await transport.send('GET', '/api/v1/events', undefined, signal);
  handlers.onOpen?.();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let name = 'message';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) name = line.slice(6).trim();
          else if (line.startsWith('data:')) data += line.slice(5).trim();
        }
        if (!data) continue;
        const parsed: unknown = JSON.parse(data);
        if (name === 'request') handlers.onRequest?.(parsed as RequestEvent);
        else if (name === 'delivery') handlers.onDelivery?.(parsed as DeliveryEvent);
        else if (name === 'export') handlers.onExport?.(parsed as ExportEvent);
        else if (name === 'voice-pack') handlers.onVoicePack?.(parsed as VoicePackEvent);
        else if (name === 'project') handlers.onProject?.(parsed as ProjectEvent);
      }
    }
  } catch (error) {
    if ((error as Error).name === 'AbortError' || signal.aborted) return;
    throw error;
  } finally {
    reader.releaseLock();
  }
}
