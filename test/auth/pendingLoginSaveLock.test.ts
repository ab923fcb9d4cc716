// The pending sign-ins' save lock (src/auth/pendingLoginSaveLock.ts), one contract for both
// implementations: each engine's port carries its own (.sqlite.ts, .postgres.ts).
import { it } from 'vitest';
import type { PgQueries } from '../../src/db/databasePort.js';
import { describeOnBothEngines } from '../support/bothEngines.js';
import { expectSecondToWaitForFirst } from '../support/transactionLocks.js';

describeOnBothEngines('pending sign-in save lock', (port) => {
  const take = (q: PgQueries) => port().statements.pendingLoginSaveLock.take(q);

  it('lets one save in at a time: a second save takes it only once the first committed', () => expectSecondToWaitForFirst(port(), take));

  it('is released when the save rolls back', () => expectSecondToWaitForFirst(port(), take, { rollBack: true }));
});
