// Start-up check of the places the service writes: the database's folder and files, and DATA_DIR
// when it holds the generated JWT secret. A folder that cannot be written, a database path that
// is not a regular file, or anything under /proc or /sys is refused with one line naming the
// setting (instead of a stack trace from SQLite later, or a read that blocks on a /proc file).
import fs from 'node:fs';
import path from 'node:path';
import { isInMemoryDatabase, refuse, settings, type Config, type Setting } from './config.js';

const PSEUDO_FILE_SYSTEMS = ['/proc', '/sys'];

function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '')}` : String(e.message ?? e);
}

/** Where `target` really is: symbolic links of its deepest existing ancestor resolved. */
function realLocation(target: string): string {
  let existing = target;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  try {
    return path.join(fs.realpathSync(existing), path.relative(existing, target));
  } catch {
    return target;
  }
}

function checkNotPseudo(setting: Setting, raw: string, target: string): void {
  const real = realLocation(target);
  if (PSEUDO_FILE_SYSTEMS.some((root) => real === root || real.startsWith(`${root}/`))) {
    throw refuse(setting, raw, `a path outside ${PSEUDO_FILE_SYSTEMS.join(' and ')} (it resolves to ${real})`);
  }
}

function checkWritableFolder(setting: Setting, raw: string, folder: string): void {
  checkNotPseudo(setting, raw, folder);
  const probe = path.join(folder, `.write-check-${process.pid}`);
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(probe, '', { flag: 'wx' });
    fs.unlinkSync(probe);
  } catch (error) {
    throw refuse(setting, raw, `a writable folder (${folder}: ${reason(error)})`);
  }
}

function checkWritableFile(setting: Setting, raw: string, file: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return; // created on first start
  }
  if (!stat.isFile()) throw refuse(setting, raw, `a regular file (${file} is not one)`);
  try {
    fs.closeSync(fs.openSync(file, 'r+'));
  } catch (error) {
    throw refuse(setting, raw, `a writable file (${file}: ${reason(error)})`);
  }
}

export function checkDataPaths(config: Config, env: NodeJS.ProcessEnv = process.env): void {
  const { database } = config;
  if (database.engine === 'sqlite' && database.file !== ':memory:') {
    // Without DATABASE_URL the database lives in DATA_DIR, so that is the setting to fix.
    const setting = env.DATABASE_URL === undefined ? settings.DATA_DIR : settings.DATABASE_URL;
    const shownRaw = env.DATABASE_URL ?? env.DATA_DIR ?? './data';
    checkNotPseudo(setting, shownRaw, database.file);
    checkWritableFolder(setting, shownRaw, path.dirname(database.file));
    for (const file of [database.file, `${database.file}-wal`, `${database.file}-shm`]) checkWritableFile(setting, shownRaw, file);
  }
  if (!config.jwtSecret && !isInMemoryDatabase(database)) {
    checkWritableFolder(settings.DATA_DIR, env.DATA_DIR ?? './data', config.dataDir);
  }
}
