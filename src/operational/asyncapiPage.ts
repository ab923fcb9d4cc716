// A small, dependency-free HTML rendering of the bundled asyncapi.yaml for /docs/asyncapi: servers,
// channels with their operations, and every message with its payload schema and examples.
const escape = (text: unknown): string =>
  String(text ?? '').replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

const pre = (value: unknown) => `<pre>${escape(typeof value === 'string' ? value : JSON.stringify(value, null, 2))}</pre>`;

export function renderAsyncapiPage(doc: Record<string, any>): string {
  const messages = doc.components?.messages ?? {};
  const schemas = doc.components?.schemas ?? {};
  const refName = (ref: string | undefined) => ref?.split('/').pop() ?? '';
  const operations = Object.entries<any>(doc.operations ?? {});
  const channelRows = Object.entries<any>(doc.channels ?? {})
    .map(([name, channel]) => {
      const ops = operations.filter(([, op]) => refName(op.channel?.$ref) === name);
      return `<tr><td><code>${escape(channel.address)}</code></td><td>${ops.map(([id, op]) => `${escape(op.action)} <code>${escape(id)}</code>`).join('<br>')}</td><td>${Object.values<any>(channel.messages ?? {}).map((m) => `<a href="#message-${escape(refName(m.$ref))}">${escape(refName(m.$ref))}</a>`).join(', ')}</td><td>${escape(channel.description)}</td></tr>`;
    })
    .join('\n');
  const messageSections = Object.entries<any>(messages)
    .map(([name, message]) => {
      const payloadName = refName(message.payload?.$ref);
      return `<section id="message-${escape(name)}"><h3>${escape(message.title ?? name)}</h3><p>${escape(message.summary)}</p>
<h4>Payload <code>${escape(payloadName)}</code></h4>${pre(schemas[payloadName] ?? message.payload)}
${(message.examples ?? []).map((ex: any) => `<h4>Example: ${escape(ex.name)}</h4>${pre(ex.payload)}`).join('\n')}</section>`;
    })
    .join('\n');
  const servers = Object.entries<any>(doc.servers ?? {})
    .map(([name, s]) => `<h3>${escape(name)}: <code>${escape(s.protocol)}://${escape(s.host)}${escape(s.pathname ?? '')}</code></h3>${pre(s.description)}`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(doc.info?.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;line-height:1.4}pre{background:#f4f4f4;padding:.75rem;overflow:auto;white-space:pre-wrap}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.4rem;vertical-align:top;text-align:left}</style>
</head><body>
<h1>${escape(doc.info?.title)} <small>${escape(doc.info?.version)}</small></h1>
<p>AsyncAPI ${escape(doc.asyncapi)} · <a href="/asyncapi.yaml">asyncapi.yaml</a> · <a href="/docs">HTTP API</a></p>
${pre(doc.info?.description)}
<h2>Servers</h2>${servers}
<h2>Channels</h2><table><tr><th>Address</th><th>Operations</th><th>Messages</th><th>Description</th></tr>
${channelRows}</table>
<h2>Messages</h2>${messageSections}
</body></html>
`;
}
