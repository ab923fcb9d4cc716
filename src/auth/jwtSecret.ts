// The HS256 signing secret: JWT_SECRET when set (required in production), otherwise a random secret
// generated on first start and kept in the data folder, so tokens survive restarts in development.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isInMemoryDatabase, type Config } from '../config/config.js';

export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  // Tokens cannot outlive a database in memory: a secret of this process is enough.
  if (isInMemoryDatabase(config.database)) return crypto.randomBytes(48).toString('base64url');
  const file = path.join(config.dataDir, 'jwt-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(config.dataDir, { recursive: true });
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
