// The text of a `ws` message event, whichever of its three shapes `ws` hands over (a Buffer by
// default, an ArrayBuffer or a list of fragments with other binary types).
import type { RawData } from 'ws';

export function webSocketText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
