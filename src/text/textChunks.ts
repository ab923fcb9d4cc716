// Splits text into streamable chunks of about `size` characters, preferring to cut after
// whitespace and never inside a surrogate pair; the chunks concatenate to exactly `text`.
function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function chunkText(text: string, size: number): string[] {
  const chunks: string[] = [];
  let from = 0;
  while (from < text.length) {
    let to = Math.min(text.length, from + size);
    if (to < text.length) {
      const lastSpace = text.slice(from + 1, to).search(/\s\S*$/u);
      if (lastSpace !== -1) to = from + 1 + lastSpace + 1;
      else if (isHighSurrogate(text.charCodeAt(to - 1))) to += to - 1 > from ? -1 : 1;
    }
    chunks.push(text.slice(from, to));
    from = to;
  }
  return chunks;
}
