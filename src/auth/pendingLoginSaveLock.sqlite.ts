// The pending sign-ins' save lock on SQLite (pendingLoginSaveLock.ts): none is needed, the save's
// transaction (BEGIN IMMEDIATE, under the port's mutex) is the only writer of the file meanwhile.
import type { PendingLoginSaveLock } from './pendingLoginSaveLock.js';

export const sqlitePendingLoginSaveLock: PendingLoginSaveLock = {
  take: () => Promise.resolve(),
};
