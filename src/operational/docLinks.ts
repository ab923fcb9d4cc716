// The links the landing page lists (GET /, `LandingPageResponse.links` in openapi.yaml) and the
// navigation bar on top of every docs page, so that each page reaches the others.
import type { components } from '../../generated/openapi.js';
import { operationPath } from '../kernel/operationPath.js';

type LandingLinks = components['schemas']['LandingPageResponse']['links'];

export const docLinks: LandingLinks = {
  apiDocs: { href: '/docs', type: 'text/html', title: 'HTTP API (Swagger UI)' },
  asyncApiDocs: { href: '/docs/asyncapi', type: 'text/html', title: 'Real-time API (AsyncAPI)' },
  openApiDocument: { href: '/openapi.yaml', type: 'application/yaml', title: 'openapi.yaml' },
  asyncApiDocument: { href: '/asyncapi.yaml', type: 'application/yaml', title: 'asyncapi.yaml' },
  health: { href: '/healthz', type: 'application/json', title: 'Liveness' },
  readiness: { href: '/readyz', type: 'application/json', title: 'Readiness' },
};

/**
 * The playground page: a page of the docs, but not one of LandingPageResponse's links (a closed
 * schema: a new link there would break strict clients); the landing page's HTML and the bar link it.
 */
export const playgroundLink = { href: operationPath('getPlayground', {}), title: 'Playground' };

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

const navEntries: [href: string, label: string][] = [
  ['/', 'Trip Itinerary Service'],
  [docLinks.apiDocs.href, docLinks.apiDocs.title],
  [docLinks.asyncApiDocs.href, docLinks.asyncApiDocs.title],
  [playgroundLink.href, playgroundLink.title],
  [docLinks.openApiDocument.href, docLinks.openApiDocument.title],
  [docLinks.asyncApiDocument.href, docLinks.asyncApiDocument.title],
  // Not one of the landing page's links (LandingPageResponse): the live numbers, not documentation.
  [operationPath('getMetricsDashboard', {}), 'Live metrics'],
];

/** The bar on top of the landing page, both docs and the dashboard; the page it is on is marked. */
/** `current`: the href of the page the bar is on (one of the entries). */
export function navBar(current: string): string {
  const items = navEntries.map(([href, label]) => `<a href="${href}"${href === current ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a>`);
  return `<nav class="docs-nav" aria-label="Documentation">${items.join('')}</nav>`;
}

export const navBarCss =
  '.docs-nav{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;padding:.65rem 1.25rem;background:#1b1f24;font:15px/1.4 system-ui,sans-serif}' +
  '.docs-nav a{color:#d0d7de;text-decoration:none}.docs-nav a:hover{color:#fff;text-decoration:underline}' +
  '.docs-nav a:first-child{font-weight:600;color:#fff}.docs-nav a[aria-current=page]{color:#fff;box-shadow:inset 0 -2px #49cc90}';
