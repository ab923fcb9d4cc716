// Handlers of the Members operations.
import type { Handlers } from '../../generated/operations.js';
import type { components } from '../../generated/openapi.js';
import type { DatabasePort } from '../db/databasePort.js';
import { AppError } from '../kernel/appError.js';
import { principalOf, type Principal } from '../kernel/principal.js';
import type { RequestContext } from '../kernel/requestContext.js';
import { findMemberById, type MemberRow } from './memberRepository.js';

function toMemberResponse(member: MemberRow, role: Principal['role']): components['schemas']['MemberResponse'] {
  return {
    id: member.id,
    email: member.email,
    name: member.name,
    imageUrl: member.imageUrl,
    provider: member.provider,
    role,
    createdAt: new Date(member.createdAt).toISOString(),
    updatedAt: new Date(member.updatedAt).toISOString(),
  };
}

async function me(db: DatabasePort, ctx: RequestContext): Promise<MemberRow> {
  const member = await findMemberById(db, principalOf(ctx).memberId);
  if (!member) throw new AppError('MEMBER001');
  return member;
}

export function createMemberHandlers({ db }: { db: DatabasePort }): Pick<Handlers<RequestContext>, 'getMe' | 'getMyName'> {
  return {
    // The role is the session's: the same member may hold sessions with different roles (roles.ts).
    getMe: async (_request, ctx) => ({ status: 200, body: toMemberResponse(await me(db, ctx), principalOf(ctx).role) }),
    getMyName: async (_request, ctx) => ({ status: 200, body: { name: (await me(db, ctx)).name } }),
  };
}
