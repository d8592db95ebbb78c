/**
 * One EventSource per stream URL for the whole page, however many hooks follow it: a drop's product page
 * follows its waiting room's status (the waiting room) and its stock (the stock line) over ONE stream,
 * `/api/drops/:id/events` (the status carries `left` and `editionSize`). Each subscriber gets the events
 * it names and hears when the stream fails; the source closes when its last subscriber leaves.
 */

type DataListener = (data: string) => void;
/** `closed`: the browser gave up (a refusal, 503/429): it will not retry by itself. */
type ErrorListener = (closed: boolean) => void;

interface Shared {
  source: EventSource;
  subscribers: Set<{ event: string; onData: DataListener; onError?: ErrorListener }>;
}

const shared = new Map<string, Shared>();

function open(url: string, entry: Pick<Shared, 'subscribers'>): EventSource {
  const source = new EventSource(url, { withCredentials: true });
  const events = new Set([...entry.subscribers].map((s) => s.event));
  for (const event of events)
    source.addEventListener(event, (e) => {
      for (const s of [...entry.subscribers]) if (s.event === event) s.onData((e as MessageEvent<string>).data);
    });
  source.onerror = () => {
    const closed = source.readyState === EventSource.CLOSED;
    for (const s of [...entry.subscribers]) s.onError?.(closed);
  };
  return source;
}

/** Follows `event` on the page's one stream at `url`; returns the unsubscribe. Needs EventSource. */
export function subscribeEvents(url: string, event: string, onData: DataListener, onError?: ErrorListener): () => void {
  const subscriber = { event, onData, onError };
  let entry = shared.get(url);
  if (entry && ![...entry.subscribers].some((s) => s.event === event)) {
    // A new event name on an open stream: listen for it too.
    const e = entry;
    e.source.addEventListener(event, (m) => {
      for (const s of [...e.subscribers]) if (s.event === event) s.onData((m as MessageEvent<string>).data);
    });
  }
  if (!entry) {
    const subscribers = new Set([subscriber]);
    entry = { subscribers, source: open(url, { subscribers }) };
    shared.set(url, entry);
  } else entry.subscribers.add(subscriber);
  const mine = entry;
  return () => {
    mine.subscribers.delete(subscriber);
    if (mine.subscribers.size === 0 && shared.get(url) === mine) {
      mine.source.close();
      shared.delete(url);
    }
  };
}

/** Opens the stream at `url` again (its subscribers kept), e.g. after joining: the new request carries the new session. */
export function reopenEvents(url: string): void {
  const entry = shared.get(url);
  if (!entry) return;
  entry.source.close();
  entry.source = open(url, entry);
}
