/** Two connected ends of a runtime Port in memory, behaving as Chrome's do: messages arrive
 * later (never inside postMessage), as JSON copies; disconnect() tells the other end only, and a
 * disconnected end refuses to post. */
import type { PortLike } from '../../lib/llm/builtin-remote';

type End = PortLike & { peer?: End; closed: boolean; receive(m: unknown): void; gone(): void };

function end(): End {
  const onMessage: ((m: unknown) => void)[] = [];
  const onDisconnect: (() => void)[] = [];
  const e: End = {
    closed: false,
    onMessage: { addListener: (f) => onMessage.push(f) },
    onDisconnect: { addListener: (f) => onDisconnect.push(f) },
    postMessage(m) {
      if (e.closed) throw new Error('Attempting to use a disconnected port object');
      const copy: unknown = JSON.parse(JSON.stringify(m));
      setTimeout(() => e.peer?.receive(copy), 0);
    },
    disconnect() {
      if (e.closed) return;
      e.closed = true;
      setTimeout(() => e.peer?.gone(), 0);
    },
    receive: (m) => {
      if (!e.closed) onMessage.forEach((f) => f(m));
    },
    gone: () => {
      if (e.closed) return;
      e.closed = true;
      onDisconnect.forEach((f) => f());
    },
  };
  return e;
}

export function portPair(): [PortLike, PortLike] {
  const a = end();
  const b = end();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
