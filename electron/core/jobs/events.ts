/**
 * In-process notifications of request and delivery changes and of voice-pack installs (feeds the
 * SSE stream).
 */

import { EventEmitter } from 'node:events';
import type { DeliveryEvent, RequestEvent } from '../../shared/api';
import type { ExportEvent } from '../../shared/book-exports';
import type { ProjectEvent } from '../../shared/projects';
import type { VoicePackEvent } from '../../shared/voice-packs';

export interface JobEventMap {
  request: [event: RequestEvent & { keyId: string }];
  delivery: [event: DeliveryEvent & { keyId: string }];
  /** An audiobook export was accepted, moved on, or ended. */
  export: [event: ExportEvent & { keyId: string }];
  /** A book project's render moved on, or some of its segments changed state. */
  project: [event: ProjectEvent & { keyId: string }];
  /** A request reached SUCCESS or FAILURE. */
  finished: [event: { requestId: string; keyId: string }];
  /** A voice-pack install moved on or ended (not per key: every studio session sees it). */
  'voice-pack': [event: VoicePackEvent];
}

export type JobEvents = EventEmitter<JobEventMap>;

export function createJobEvents(): JobEvents {
  const events = new EventEmitter<JobEventMap>();
  // One listener per open SSE stream and per waiting OpenAI request.
  events.setMaxListeners(0);
  return events;
}
