// The live-session lookup's statements (src/auth/liveSessionStatements.ts), one contract for both
// implementations: each engine's port carries its own (.sqlite.ts, .postgres.ts).
import { expect, it } from 'vitest';
import { describeOnBothEngines } from '../support/bothEngines.js';
import { addMember, addSession, T0 } from '../support/sqlFixtures.js';

describeOnBothEngines('live session statements', (port) => {
  const owner = (sessionId: string, nowMs: number) => port().statements.liveSessions.owner(sessionId, nowMs);

  it('gives the member and role of a session that is live at the instant', async () => {
    const memberId = await addMember(port(), 'live@example.com');
    await addSession(port(), memberId, { id: 'member-session', expiresAt: T0 + 1000 });
    await addSession(port(), memberId, { id: 'admin-session', expiresAt: T0 + 1000, role: 'ADMIN' });
    expect(await owner('member-session', T0)).toEqual({ memberId, role: 'MEMBER' });
    expect(await owner('admin-session', T0 + 999)).toEqual({ memberId, role: 'ADMIN' });
  });

  it('gives nothing for a session that expired by the instant, was revoked, or is unknown', async () => {
    const memberId = await addMember(port(), 'ended@example.com');
    await addSession(port(), memberId, { id: 'expiring', expiresAt: T0 + 1000 });
    await addSession(port(), memberId, { id: 'revoked', expiresAt: T0 + 1000, revokedAt: T0 });
    expect(await owner('expiring', T0 + 1000)).toBeUndefined();
    expect(await owner('revoked', T0)).toBeUndefined();
    expect(await owner('unknown', T0)).toBeUndefined();
  });
});
