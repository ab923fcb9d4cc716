// One holder at a time, in arrival order, for async work: each caller waits for the previous
// caller's work to settle (resolve or reject) before its own starts.
export interface AsyncMutex {
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

export function createAsyncMutex(): AsyncMutex {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    exclusive<T>(work: () => Promise<T>): Promise<T> {
      const result = tail.then(work);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
