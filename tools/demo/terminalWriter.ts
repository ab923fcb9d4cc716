// Writes whole lines and streamed text to stdout without the two running into each other: a line
// printed while streamed text is mid-line starts on a fresh line.
export interface TerminalWriter {
  line(text?: string): void;
  /** streamed text, written as it arrives, without a newline */
  stream(text: string): void;
  /** ends the streamed text (a newline if it did not end with one) */
  endStream(): void;
}

export function terminalWriter(write: (text: string) => void = (text) => void process.stdout.write(text)): TerminalWriter {
  let midLine = false;
  const endStream = () => {
    if (midLine) write('\n');
    midLine = false;
  };
  return {
    line(text = '') {
      endStream();
      write(`${text}\n`);
    },
    stream(text) {
      if (text === '') return;
      write(text);
      midLine = !text.endsWith('\n');
    },
    endStream,
  };
}
