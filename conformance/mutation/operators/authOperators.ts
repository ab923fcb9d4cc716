// Bugs in authentication and ownership: a request without a token served as someone, a bad token
// refused with the wrong status, another member's plan or room refused with 403 (which tells that
// it exists) or served outright.
import type { Mutation, ProxyRequest } from '../mutation.js';
import type { MutationOperator } from '../operator.js';
import { dataOf, errorAnswer, errorCodeOf, headerValue, isRequest, pathOf, rewriteResponses, tripPlanIdIn, withHeaders } from './httpRewrites.js';

const securedPath = /^\/api\/v1\/(trips|members|chats|admin)(\/|$)/;

/** The ids of trip plans and chat rooms the proxy saw created, by the Authorization that created them, and the tokens the server took. */
class Owners {
  private readonly byId = new Map<string, string>();
  private readonly signedIn = new Set<string>();

  /** Learns from a response: a token the server took, and the owner of a plan and its room (a 201 of createTripPlanSession). */
  learn(request: ProxyRequest, status: number, data: Record<string, unknown> | undefined): void {
    const authorization = headerValue(request, 'authorization');
    if (authorization === undefined || status >= 300) return;
    this.signedIn.add(authorization);
    if (!isRequest(request, 'POST', /^\/api\/v1\/trips$/) || status !== 201 || !data) return;
    this.byId.set(`plan ${String(data.tripPlanId)}`, authorization);
    this.byId.set(`room ${String(data.chatRoomId)}`, authorization);
  }

  /** The Authorization of the member who owns the plan or room a signed-in member's request names, when that is someone else. */
  otherOwnerOf(request: ProxyRequest): string | undefined {
    const authorization = headerValue(request, 'authorization');
    if (authorization === undefined || !this.signedIn.has(authorization)) return undefined;
    const path = pathOf(request);
    const plan = tripPlanIdIn(path);
    const room = /^\/api\/v1\/chats\/(\d+)\//.exec(path)?.[1];
    const owner = plan !== undefined ? this.byId.get(`plan ${plan}`) : room !== undefined ? this.byId.get(`room ${room}`) : undefined;
    return owner !== undefined && owner !== authorization ? owner : undefined;
  }
}

/** A mutation that knows who owns which plan and room (its hooks are given them), learning from every response. */
function withOwners(mutate: (owners: Owners) => Pick<Mutation, 'request' | 'response'>): () => Mutation {
  return () => {
    const owners = new Owners();
    const { request, response } = mutate(owners);
    return {
      request: (proxied) => request?.(proxied),
      response(answer, proxied) {
        owners.learn(proxied, answer.status, dataOf(answer));
        return response?.(answer, proxied);
      },
    };
  };
}

export const authOperators: MutationOperator[] = [
  {
    id: 'missing-token-served-as-last-member',
    description: 'a request without a token is served as the member who was signed in last (a session that leaks between requests)',
    quote: { file: 'openapi.yaml', pointer: '/components/responses/Unauthorized/description', text: '`AUTH011`: no `Authorization` header' },
    phases: ['auth'],
    meantFor: 'auth_required',
    mutation() {
      let lastGood: string | undefined;
      return {
        request: (request) =>
          lastGood !== undefined && headerValue(request, 'authorization') === undefined && securedPath.test(pathOf(request))
            ? withHeaders(request, { authorization: lastGood })
            : undefined,
        response(response, request) {
          const authorization = headerValue(request, 'authorization');
          if (authorization !== undefined && response.status < 300) lastGood = authorization;
          return undefined;
        },
      };
    },
  },
  {
    id: 'invalid-token-forbidden',
    description: 'an invalid token answers 403 COMMON403 instead of 401 AUTH001',
    quote: { file: 'openapi.yaml', pointer: '/components/responses/Unauthorized/description', text: '`AUTH001`: the token is invalid' },
    phases: ['auth'],
    meantFor: 'auth_required',
    mutation: rewriteResponses(
      (_request, response) => response.status === 401 && errorCodeOf(response) === 'AUTH001',
      (_response, request) => errorAnswer(request, 403, 'COMMON403', 'You may not do this.'),
    ),
  },
  {
    id: 'other-members-plan-forbidden',
    description: 'another member’s trip plan or chat room answers 403 (it exists, it is not yours) instead of 404',
    quote: { file: 'openapi.yaml', pointer: '/components/schemas/ErrorCode/oneOf/23/description', text: 'never 403, so ids leak nothing' },
    phases: ['auth'],
    meantFor: 'no_existence_leak',
    mutation: withOwners((owners) => ({
      response: (response, request) =>
        response.status === 404 && owners.otherOwnerOf(request) !== undefined
          ? errorAnswer(request, 403, 'COMMON403', 'This trip plan is not yours.')
          : undefined,
    })),
  },
  {
    id: 'other-members-plan-served',
    description: 'another member’s trip plan or chat room is served: ownership is not checked',
    quote: {
      file: 'openapi.yaml',
      pointer: '/tags/5/description',
      text: 'A trip plan or chat room of another member answers `404` exactly like a missing one',
    },
    phases: ['auth'],
    meantFor: 'no_existence_leak',
    mutation: withOwners((owners) => ({
      request(request) {
        const owner = owners.otherOwnerOf(request);
        return owner === undefined ? undefined : withHeaders(request, { authorization: owner });
      },
    })),
  },
];
