/** A new task: what ran before and what runs after are not one long task (no timer, so a fake clock cannot stall it). */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}
