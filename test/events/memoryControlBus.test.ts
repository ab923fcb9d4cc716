// The control bus of one instance: the control bus contract (controlBusContract.ts), with the same
// bus as the "other instance", and the event bus and the session revocations on it.
import { describe, expect, it } from 'vitest';
import { sessionRevocationsOn, type RevocationTopics, type SessionRevoked } from '../../src/auth/sessionRevocations.js';
import { createMemoryControlBus } from '../../src/events/controlBus.memory.js';
import { createInProcessEventBus, type DomainEvents } from '../../src/events/eventBus.js';
import { controlBusContract, type BusUnderTest, type TestTopics } from './controlBusContract.js';

describe('the control bus in memory', () => {
  controlBusContract(() => {
    const listenerErrors: BusUnderTest['listenerErrors'] = [];
    const bus = createMemoryControlBus<TestTopics>((error, topic) => listenerErrors.push([error, topic]));
    return Promise.resolve({ bus, other: bus, listenerErrors, done: () => Promise.resolve() });
  });

  it('the event bus runs its listeners after the publisher, each once, and reports one that fails with its event', async () => {
    const errors: unknown[] = [];
    const events = createInProcessEventBus((error, name) => errors.push([(error as Error).message, name]));
    const cancel: DomainEvents['tripPlanGenerationCancelRequested'] = { tripPlanId: 4, memberId: 7, chatRoomId: 5, reason: 'cancel', run: 2, attempt: 1 };
    const told: unknown[] = [];
    events.subscribe('tripPlanGenerationCancelRequested', (event) => void told.push(event));
    events.subscribe('tripPlanGenerationCancelRequested', () => Promise.reject(new Error('listener broke')));
    events.publish('tripPlanGenerationCancelRequested', cancel);
    expect(told).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(told).toEqual([cancel]);
    expect(errors).toEqual([['listener broke', 'tripPlanGenerationCancelRequested']]);
  });

  it('a revocation reaches the listeners before publish returns', () => {
    const revocations = sessionRevocationsOn(createMemoryControlBus<RevocationTopics>(() => {}));
    const told: SessionRevoked[] = [];
    const stop = revocations.subscribe((event) => told.push(event));
    revocations.publish({ sessionId: 's-1', reason: 'logout' });
    stop();
    revocations.publish({ sessionId: 's-2', reason: 'logout' });
    expect(told).toEqual([{ sessionId: 's-1', reason: 'logout' }]);
  });
});
