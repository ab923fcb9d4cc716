// What every control bus does, whichever carries it (controlBus.memory.ts, controlBus.redis.ts): a
// message reaches this instance's listeners of its topic before publish returns, each once, and
// every other instance's once; other topics' listeners and those that stopped listening are not
// told; a listener that throws is reported with its topic and the others are still told. Each
// implementation's test file runs these.
import { expect, it } from 'vitest';
import type { ControlBus } from '../../src/events/controlBus.js';
import { eventually } from '../delivery/planLogContract.js';

/** The topics the contract publishes on. */
export interface TestTopics {
  greeting: { text: string };
  farewell: { text: string; times: number };
}

export const testTopics = {
  greeting: (message: unknown): message is TestTopics['greeting'] => typeof (message as { text?: unknown } | null)?.text === 'string',
  farewell: (message: unknown): message is TestTopics['farewell'] => typeof (message as { times?: unknown } | null)?.times === 'number',
};

export interface BusUnderTest {
  bus: ControlBus<TestTopics>;
  /** another instance's bus, or the same one when there is one process */
  other: ControlBus<TestTopics>;
  /** what the buses reported of their listeners that threw: the error and its topic */
  listenerErrors: Array<[unknown, string]>;
  done(): Promise<void>;
}

export type MakeBus = () => Promise<BusUnderTest>;

export function controlBusContract(makeBus: MakeBus): void {
  const withBus = async (body: (t: BusUnderTest) => Promise<void>) => {
    const t = await makeBus();
    try {
      await body(t);
    } finally {
      await t.done();
    }
  };

  it("a message reaches this instance's listeners of its topic before publish returns, and every other instance's, each once", () =>
    withBus(async ({ bus, other }) => {
      const here: string[] = [];
      const there: string[] = [];
      bus.subscribe('greeting', (message) => here.push(message.text));
      other.subscribe('greeting', (message) => there.push(message.text));
      bus.publish('greeting', { text: 'hello' });
      expect(here).toEqual(['hello']);
      await eventually(() => expect(there).toEqual(['hello']));
      // A later message arrives after any copy of the first: none came twice.
      other.publish('greeting', { text: 'again' });
      await eventually(() => expect(here).toEqual(['hello', 'again']));
      expect(there).toEqual(['hello', 'again']);
    }));

  it('listeners of another topic, and one that stopped listening, are not told', () =>
    withBus(async ({ bus, other }) => {
      const told: string[] = [];
      const stop = bus.subscribe('greeting', (message) => told.push(`stopped ${message.text}`));
      bus.subscribe('farewell', (message) => told.push(`farewell ${message.text} x${message.times}`));
      stop();
      bus.publish('greeting', { text: 'hello' });
      other.publish('farewell', { text: 'bye', times: 2 });
      await eventually(() => expect(told).toEqual(['farewell bye x2']));
    }));

  it('a listener that throws is reported with its topic, and the others are still told', () =>
    withBus(async ({ bus, other, listenerErrors }) => {
      const told: string[] = [];
      bus.subscribe('greeting', () => {
        throw new Error('listener broke');
      });
      bus.subscribe('greeting', (message) => told.push(message.text));
      bus.publish('greeting', { text: 'here' });
      expect(told).toEqual(['here']);
      other.publish('greeting', { text: 'from there' });
      await eventually(() => expect(told).toEqual(['here', 'from there']));
      expect(listenerErrors.map(([error, topic]) => [(error as Error).message, topic])).toEqual([
        ['listener broke', 'greeting'],
        ['listener broke', 'greeting'],
      ]);
    }));
}
