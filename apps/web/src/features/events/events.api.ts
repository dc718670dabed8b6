import {
  EventSchema,
  type EventsRead,
  type EventsReadResult,
  EventsReadResultSchema,
  type EventsRequest,
  type FleetEvent,
} from "@cellfleet/contract";
import { apiRequest, apiStream } from "../../app/api/http";

/** POST /api/events/all (NDJSON, newest first): one page of at most `limit` (default 2048) events. */
export async function getEvents(request: EventsRequest, signal?: AbortSignal): Promise<FleetEvent[]> {
  const events: FleetEvent[] = [];
  await apiStream("POST /api/events/all", {
    body: { ...request },
    signal,
    schema: EventSchema,
    onLine: (event) => events.push(event),
  });
  return events;
}

/** POST /api/events/{dev_id} (NDJSON): the events of one device, newest first. */
export async function getDeviceEvents(
  deviceId: string,
  request: EventsRequest,
  signal?: AbortSignal,
): Promise<FleetEvent[]> {
  const events: FleetEvent[] = [];
  await apiStream("POST /api/events/{dev_id}", {
    params: { dev_id: deviceId },
    body: { ...request },
    signal,
    schema: EventSchema,
    onLine: (event) => events.push(event),
  });
  return events;
}

/** POST /api/events/read: marks the given events, or all of the domain's, read for the signed-in user. */
export function markEventsRead(body: EventsRead): Promise<EventsReadResult> {
  return apiRequest("POST /api/events/read", { body: { ...body }, schema: EventsReadResultSchema });
}
