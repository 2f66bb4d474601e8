/** In-process notifications of request and delivery changes (feeds the SSE stream). */

import { EventEmitter } from 'node:events';
import type { DeliveryEvent, RequestEvent } from '../../shared/api';

export interface JobEventMap {
  request: [event: RequestEvent & { keyId: string }];
  delivery: [event: DeliveryEvent & { keyId: string }];
  /** A request reached SUCCESS or FAILURE. */
  finished: [event: { requestId: string; keyId: string }];
}

export type JobEvents = EventEmitter<JobEventMap>;

export function createJobEvents(): JobEvents {
  const events = new EventEmitter<JobEventMap>();
  // One listener per open SSE stream and per waiting OpenAI request.
  events.setMaxListeners(0);
  return events;
}
