/**
 * Yield the main thread for a macrotask, so long work done in slices (a fingerprint, a large
 * dataset's group rows) never blocks input or painting: a message to itself, which a hidden tab
 * does not throttle to once a second as it does `setTimeout`.
 */
export function yieldTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
