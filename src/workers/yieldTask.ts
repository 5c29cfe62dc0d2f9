/**
 * Yield the main thread for a macrotask, so long work done in slices (a fingerprint, a large
 * dataset's group rows) never blocks input or painting: a message to itself, which a hidden tab
 * does not throttle to once a second as it does `setTimeout`. One channel for the page, held by
 * this module, so no port with a pending message is ever left to the garbage collector.
 */
let channel: MessageChannel | null = null;
const waiting: (() => void)[] = [];

export function yieldTask(): Promise<void> {
  return new Promise((resolve) => {
    if (channel === null) {
      channel = new MessageChannel();
      channel.port1.onmessage = () => waiting.shift()?.();
    }
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}
