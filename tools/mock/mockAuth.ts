// Authentication in the mock: there are no accounts, so any syntactically valid bearer token
// (`Bearer <token68>`, the shape of StompConnectHeaders.Authorization in asyncapi.yaml) is accepted,
// as the member of the spec's getMe example. Missing or malformed tokens get the server's errors:
// 401 AUTH011 / AUTH001 over HTTP, ERROR WS001 on CONNECT.
import { type Principal, AppError } from '../../src/index.js';

const token68 = /^[A-Za-z0-9._~+/-]+=*$/;

export interface MockAuth {
  /** the `Authorization` header of an HTTP request; throws AUTH011 / AUTH001 as the server does */
  authenticate(authorization: string | undefined): Principal;
  /** a bare token (STOMP CONNECT); throws AUTH001, which the STOMP session turns into WS001 */
  authenticateToken(token: string): Promise<Principal>;
  isSessionLive(sessionId: string): Promise<boolean>;
}

export function createMockAuth(memberId: number): MockAuth {
  const principalFor = (token: string): Principal => {
    if (!token68.test(token)) throw new AppError('AUTH001', 'The mock accepts any bearer token of token68 characters; this is not one.');
    // Never expires: the mock has no clock of its own tokens.
    return { memberId, sessionId: 'mock', role: 'ADMIN', expiresAt: Number.MAX_SAFE_INTEGER };
  };
  return {
    authenticate(authorization) {
      if (!authorization) throw new AppError('AUTH011');
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match?.[1]) throw new AppError('AUTH001');
      return principalFor(match[1]);
    },
    authenticateToken: (token) => Promise.resolve().then(() => principalFor(token)),
    isSessionLive: () => Promise.resolve(true),
  };
}
