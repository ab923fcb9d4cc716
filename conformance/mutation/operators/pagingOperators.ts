// Bugs in cursor paging (PageResponse): a cursor that is not the last item's id, a last page that
// says there is more, a page size that is not honoured or not reported, items out of order.
import type { ProxyRequest } from '../mutation.js';
import type { MutationOperator } from '../operator.js';
import { isRequest, pathOf, queryOf, rewriteResponses, withData } from './httpRewrites.js';

const isList = (request: ProxyRequest) => isRequest(request, 'GET', /^\/api\/v1\/(trips|chats\/\d+\/messages|admin\/prompts)$/);
const itemsOf = (data: Record<string, unknown>): Record<string, unknown>[] => (Array.isArray(data.content) ? (data.content as Record<string, unknown>[]) : []);

/** A mutation of the pages the lists answer. */
const pages = (change: (data: Record<string, unknown>, request: ProxyRequest) => Record<string, unknown> | undefined) =>
  rewriteResponses(
    (request, response) => isList(request) && response.status === 200,
    (response, request) => {
      let changed = false;
      const mutated = withData(response, (data) => {
        const next = change(data, request);
        changed = next !== undefined;
        return next ?? data;
      });
      return changed ? mutated : undefined;
    },
  );

const phases = ['paging'];

export const pagingOperators: MutationOperator[] = [
  {
    id: 'next-cursor-off-by-one',
    description: 'nextCursor is the id after the page’s last item, so the next page skips or repeats one',
    quote: {
      file: 'openapi.yaml',
      pointer: '/components/schemas/NextCursor/description',
      text: "The id of the page's last item when `hasNext` (the `cursor` of the next page), else null.",
    },
    phases,
    meantFor: 'page_cursor',
    mutation: pages((data) => (typeof data.nextCursor === 'number' ? { ...data, nextCursor: data.nextCursor + 1 } : undefined)),
  },
  {
    id: 'has-next-on-last-page',
    description: 'the last page says hasNext: true with a cursor, and the page after it is empty',
    quote: { file: 'openapi.yaml', pointer: '/tags/5/description', text: '`nextCursor` is `null` on the last page.' },
    phases,
    meantFor: 'page_cursor',
    mutation: pages((data) => {
      const last = itemsOf(data).at(-1);
      return data.hasNext === false && last && typeof last.id === 'number' ? { ...data, hasNext: true, nextCursor: last.id } : undefined;
    }),
  },
  {
    id: 'page-size-ignored',
    description: 'the size parameter is ignored: every page has the default size',
    quote: { file: 'openapi.yaml', pointer: '/components/parameters/TripPageSize/description', text: 'Items per page.' },
    phases,
    meantFor: 'page_size',
    mutation: () => ({
      request(request) {
        const query = queryOf(request);
        if (!isList(request) || !query.has('size')) return undefined;
        query.delete('size');
        const rest = query.toString();
        return { ...request, path: `${pathOf(request)}${rest ? `?${rest}` : ''}` };
      },
    }),
  },
  {
    id: 'page-in-wrong-order',
    description: 'a page lists its items in the opposite of the order asked for',
    quote: {
      file: 'openapi.yaml',
      pointer: '/paths/~1api~1v1~1trips/get/description',
      text: 'Items are ordered by `(field, id)`, both in the direction of `sort`.',
    },
    phases,
    meantFor: 'page_order',
    mutation: pages((data) => (itemsOf(data).length > 1 ? { ...data, content: [...itemsOf(data)].reverse() } : undefined)),
  },
  {
    id: 'page-size-field-is-requested-size',
    description: 'a page’s size field is the size asked for, not the number of items it holds',
    quote: { file: 'openapi.yaml', pointer: '/components/schemas/PageResponse/description', text: '`size` (the number of items in `content`)' },
    phases,
    meantFor: 'page_size',
    mutation: pages((data, request) => {
      const asked = Number(queryOf(request).get('size') ?? (pathOf(request).includes('/chats/') ? 50 : 10));
      return asked !== itemsOf(data).length ? { ...data, size: asked } : undefined;
    }),
  },
];
