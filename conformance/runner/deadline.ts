// The run's deadline: what the runner awaits is raced against it, so the run ends when it passes
// whatever the server does (answers slowly, never finishes a stream, holds a connection open). The
// sandbox keeps anything from blocking the thread the timer needs, and each request is bounded too.

/** What a race returns when the deadline came first. */
export const deadlinePassed: unique symbol = Symbol('deadline passed');

/** `work`'s value, or `deadlinePassed` when the deadline (epoch ms; undefined: none) comes first. */
export async function beforeDeadline<T>(work: Promise<T>, deadlineAt: number | undefined): Promise<T | typeof deadlinePassed> {
  if (deadlineAt === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<typeof deadlinePassed>((resolve) => (timer = setTimeout(() => resolve(deadlinePassed), Math.max(0, deadlineAt - Date.now()))));
  try {
    return await Promise.race([work, passed]);
  } finally {
    clearTimeout(timer);
  }
}
