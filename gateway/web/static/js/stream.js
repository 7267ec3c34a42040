// A game's event stream (GET /games/<id>/stream), each log entry handed on exactly once.
//
// A message's id is "<game id>:<version>-0": the game and the log entry (an id of another game is
// refused with a 400). EventSource reconnects by itself after a dropped connection and sends
// Last-Event-ID, so the server resumes after the last entry it delivered. On top of that this keeps
// the last version handed on: an entry at or below it (a repeat) is dropped, and an entry that
// skips versions, or a stream the browser gave up on, is answered by opening the stream again from
// that version (?last_event_id=<game id>:<version>-0). Entries thus arrive once each, in order,
// without a gap.

/** The stream id of a game's log entry at a version: "<game id>:<version>-0". */
export function eventId(gameId, version) {
  return `${gameId}:${version}-0`;
}

/**
 * Follow a game's stream. onEntry({version, kind, seat, events}) is called once per version, in
 * order; onState("live" | "reconnecting" | "closed") tells how the connection is.
 * Returns {close(), reopen(), get last(), seen: [ids as received]}.
 */
export function follow(gameId, { token, after = 0, onEntry, onState = () => {} }) {
  let last = after;
  let source = null;
  let closed = false;
  let retry = null;
  const seen = [];

  function url() {
    const q = new URLSearchParams();
    if (token) q.set("token", token);
    if (last > 0) q.set("last_event_id", eventId(gameId, last));
    const s = q.toString();
    return `/games/${encodeURIComponent(gameId)}/stream${s ? "?" + s : ""}`;
  }

  function open() {
    if (closed) return;
    clearTimeout(retry);
    if (source) source.close();
    const es = new EventSource(url());
    source = es;
    es.addEventListener("open", () => { if (source === es) onState("live"); });
    es.addEventListener("commit", (msg) => {
      if (source !== es) return;
      seen.push(msg.lastEventId);
      let entry;
      try {
        entry = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (entry.version <= last) return; // a repeat: already handed on
      if (entry.version !== last + 1) { // a gap: read again from the last version handed on
        open();
        return;
      }
      last = entry.version;
      onEntry(entry);
    });
    es.addEventListener("error", () => {
      if (source !== es || closed) return;
      if (es.readyState === EventSource.CLOSED) { // the browser gave up: open it again ourselves
        onState("reconnecting");
        retry = setTimeout(open, 1000);
      } else {
        onState("reconnecting"); // the browser reconnects with Last-Event-ID
      }
    });
  }

  open();
  return {
    close() {
      closed = true;
      clearTimeout(retry);
      if (source) source.close();
      onState("closed");
    },
    reopen: open,
    get last() { return last; },
    seen,
  };
}
