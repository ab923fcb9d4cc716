// Handlers of the Members operations.
import type { Handlers } from '../../generated/operations.js';
import type { components } from '../../generated/openapi.js';
import type { Principal } from '../auth/authService.js';
import { AppError } from '../http/appError.js';
import { principalOf } from '../http/principal.js';
import type { RequestContext } from '../services.js';
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

function me(ctx: RequestContext): MemberRow {
  const member = findMemberById(ctx.services.db, principalOf(ctx).memberId);
  if (!member) throw new AppError('MEMBER001');
  return member;
}

export const memberHandlers: Pick<Handlers<RequestContext>, 'getMe' | 'getMyName'> = {
  // The role is the session's: the same member may hold sessions with different roles (roles.ts).
  getMe: (_request, ctx) => ({ status: 200, body: toMemberResponse(me(ctx), principalOf(ctx).role) }),
  getMyName: (_request, ctx) => ({ status: 200, body: { name: me(ctx).name } }),
};
