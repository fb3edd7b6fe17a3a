/**
 * Resolves on the next turn of the event loop, after the I/O that is waiting (an HTTP request, say): long
 * background work awaits it between slices so that the API it shares a process with keeps answering.
 */
export function nextTurn(): Promise<void> {
  return new Promise((ok) => setImmediate(ok));
}
