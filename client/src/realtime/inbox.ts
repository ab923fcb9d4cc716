// What the connection does for what arrived, one thing after the other in arrival order: a message
// to its handler, a loss (after its state was read again over HTTP), a RECEIPT to the caller that
// waited for it. So an event that messages are missing comes before the messages that follow it,
// and a subscribe resolves after the history its SUBSCRIBE asked for.
export interface Inbox {
  push(task: () => void | Promise<void>): void;
}

export function createInbox(onError: (error: unknown) => void): Inbox {
  let tail: Promise<void> = Promise.resolve();
  return {
    push(task) {
      tail = tail.then(task).catch(onError);
    },
  };
}

export interface Deferred<T> {
  promise: Promise<T>;
  settled: boolean;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A deferred nobody waits on (a subscription refused after its caller moved on) must not end the process.
  promise.catch(() => undefined);
  const d: Deferred<T> = {
    promise,
    settled: false,
    resolve(value) {
      d.settled = true;
      resolve(value);
    },
    reject(error) {
      d.settled = true;
      reject(error);
    },
  };
  return d;
}
