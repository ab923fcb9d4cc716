// `npm start -- --help`: every setting with its default, what it accepts and what it means, from
// the one table in config.ts. `--markdown` prints the same table as the settings section
// of docs/configuration.md (a test keeps the two equal).
import { settings, type Setting } from './config.js';

const rows = () => Object.values(settings) as Setting[];

export function settingsMarkdown(): string {
  // `|` would end the cell; a bare `*` would start emphasis.
  const escape = (cell: string) => cell.replaceAll('|', '\\|').replace(/(?<!`)\*(?!`)/g, '\\*');
  const lines = ['| Variable | Default | Accepted | Meaning |', '|---|---|---|---|'];
  for (const s of rows()) lines.push(`| \`${s.name}\` | ${escape(s.defaultText)} | ${escape(s.accepted)} | ${escape(s.meaning)} |`);
  return `${lines.join('\n')}\n`;
}

export function settingsHelp(): string {
  const plain = (text: string) => text.replaceAll('`', '');
  const width = Math.max(...rows().map((s) => s.name.length));
  const blocks = rows().map(
    (s) => `  ${s.name.padEnd(width)}  ${plain(s.meaning)}\n  ${' '.repeat(width)}  default: ${plain(s.defaultText)}; accepted: ${s.accepted}`,
  );
  return `Trip Itinerary Service: node --import tsx src/main.ts (npm start)\n\nSettings (environment variables):\n\n${blocks.join('\n')}\n`;
}
