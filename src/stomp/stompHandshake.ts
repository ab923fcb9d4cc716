// What CONNECT negotiates (asyncapi.yaml, server `stomp`, message StompConnect / StompConnected): the
// protocol version, where the bearer token comes from, and the heart-beats both ways.
import { asyncapiVersion } from '../../generated/asyncapi.js';
import type { StompFrame } from './stompFrame.js';

export const SUPPORTED_VERSIONS = ['1.2', '1.1', '1.0'];

/** CONNECTED's `server` header: the major.minor of the asyncapi.yaml implemented (StompConnectedHeaders). */
export const SERVER_HEADER = `trip-itinerary/${asyncapiVersion.split('.').slice(0, 2).join('.')}`;

/** The highest version both sides speak, or null (a STOMP 1.0 client sends no accept-version). */
export function negotiateVersion(frame: StompFrame): string | null {
  const offered = (frame.headers['accept-version'] ?? '1.0').split(',').map((v) => v.trim());
  return SUPPORTED_VERSIONS.find((v) => offered.includes(v)) ?? null;
}

/** The bearer token of CONNECT, else of the WebSocket upgrade request (CONNECT's wins: bearerAuth). */
export function bearerToken(frame: StompFrame, upgradeAuthorization: string | undefined): string | null {
  const authorization = frame.headers.Authorization ?? frame.headers.authorization ?? upgradeAuthorization;
  return (authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined) ?? null;
}

export interface HeartBeats {
  /** what CONNECTED proposes: `${serverMs},${serverMs}` */
  header: string;
  /** ms between the server's heart-beats to the client; 0: none */
  outgoingMs: number;
  /** ms the server expects between the client's frames; 0: not checked */
  incomingMs: number;
}

/** STOMP 1.2 §Heart-beating: each direction runs at the slower of what one side offers and the other wants. */
export function negotiateHeartBeats(frame: StompFrame, serverMs: number): HeartBeats {
  const [clientSends, clientWants] = (frame.headers['heart-beat'] ?? '0,0').split(',').map((n) => Number.parseInt(n, 10) || 0);
  return {
    header: `${serverMs},${serverMs}`,
    outgoingMs: serverMs > 0 && clientWants! > 0 ? Math.max(serverMs, clientWants!) : 0,
    incomingMs: serverMs > 0 && clientSends! > 0 ? Math.max(serverMs, clientSends!) : 0,
  };
}
