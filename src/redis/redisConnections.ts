// The two Redis connections of an instance (REDIS_URL), opened once by the composition root and
// shared by every part that talks to Redis (the plan logs, the control bus, the rate limits): one
// for commands, one for Pub/Sub (a connection that subscribed takes no other command). No part
// sends a blocking command, so none needs one of its own.
// The options are the strictest any part needs, the plan log's: commands would wait for Redis
// forever by default, and a publisher and /readyz must learn that it is away; a silent link (a
// black-hole partition: nothing answers, nothing is reset) keeps a connection "ready" for as long
// as TCP does not give up (minutes), so a connection with a command outstanding that gets no byte
// back within COMMAND_TIMEOUT_MS is dropped and reconnected. A command reported as failed must not
// run later: ioredis would send again what a dropped connection left unanswered once it reconnects.
// A part that must answer sooner (the rate limits) bounds its own calls.
import { Redis } from 'ioredis';

/**
 * How long a command waits for Redis, and a connection with a command outstanding waits for any
 * byte from it before it is dropped and reconnected.
 */
export const COMMAND_TIMEOUT_MS = 2000;

export type RedisConnectionRole = 'commands' | 'subscriber';

export interface RedisConnections {
  /** commands of every part (never a blocking one) */
  commands: Redis;
  /** the Pub/Sub subscriptions of every part */
  subscriber: Redis;
  /** Closes both (a part closes its own state first, not these). */
  close(): Promise<void>;
}

export interface RedisConnectionsOptions {
  /** redis://host:port/db */
  url: string;
  /** the start of each connection's name in CLIENT LIST (tests give each suite its own) */
  name?: string;
  /** a connection failed (Redis down, a reset link); it reconnects by itself */
  onError: (error: Error, role: RedisConnectionRole) => void;
  /** told each time a connection tries to reconnect (metrics) */
  onReconnecting?: (role: RedisConnectionRole) => void;
}

export function openRedisConnections(options: RedisConnectionsOptions): RedisConnections {
  const name = options.name ?? 'rt:';
  const commands = new Redis(options.url, {
    maxRetriesPerRequest: 2,
    commandTimeout: COMMAND_TIMEOUT_MS,
    socketTimeout: COMMAND_TIMEOUT_MS,
    autoResendUnfulfilledCommands: false,
    connectionName: `${name}commands`,
  });
  const subscriber = commands.duplicate({ connectionName: `${name}subscriber` });
  const roles: Array<[Redis, RedisConnectionRole]> = [
    [commands, 'commands'],
    [subscriber, 'subscriber'],
  ];
  for (const [connection, role] of roles) {
    connection.on('error', (error: Error) => options.onError(error, role));
    const { onReconnecting } = options;
    if (onReconnecting) connection.on('reconnecting', () => onReconnecting(role));
  }
  return {
    commands,
    subscriber,
    async close() {
      // QUIT waits behind commands queued while Redis is away: then the connection is dropped instead.
      await Promise.all(roles.map(([connection]) => connection.quit().then(undefined, () => connection.disconnect())));
    },
  };
}
