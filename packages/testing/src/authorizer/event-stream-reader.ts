/** One item of a Server-Sent Events stream: an event, or a comment line (a heartbeat). */
export type EventStreamItem = { event: string; data: unknown } | { comment: string };

/** An open event stream read item by item. */
export interface EventStreamReader {
  response: Response;
  /** The next event or comment; undefined once the stream has ended (it throws if the stream ends in the middle of an item). */
  next(): Promise<EventStreamItem | undefined>;
  /** The next event, skipping comments. */
  nextEvent(): Promise<{ event: string; data: unknown } | undefined>;
  /** Goes away, as a client that closes the page. */
  abort(): void;
}

/**
 * GET `url` (for example `…/authorizations/{id}/events`) with `Authorization: Bearer <apiKey>`
 * (none when `apiKey` is null) and read the answer as Server-Sent Events whose `data` is JSON.
 */
export async function openEventStream(url: string, apiKey: string | null): Promise<EventStreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }, signal: controller.signal });
  if (!response.body) throw new Error(`${url} answered ${response.status} without a body`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (): Promise<EventStreamItem | undefined> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(':')) return { comment: block.slice(1).trim() };
        const fields = Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
        return { event: fields.event ?? 'message', data: JSON.parse(fields.data ?? 'null') };
      }
      const chunk = await reader.read();
      if (chunk.done) {
        if (buffer !== '') throw new Error(`the event stream ended in the middle of an item: ${JSON.stringify(buffer.slice(0, 200))}`);
        return undefined;
      }
      buffer += chunk.value;
    }
  };
  return {
    response,
    next,
    async nextEvent() {
      for (;;) {
        const item = await next();
        if (!item || 'event' in item) return item;
      }
    },
    abort: () => controller.abort(),
  };
}
