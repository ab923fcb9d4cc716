// The one filler of the specs' `{name}` templates (paths, channel addresses).
import { describe, expect, it } from 'vitest';
import { fillTemplate, mapPlaceholders, placeholderNames } from '../../src/text/fillTemplate.js';

describe('fillTemplate', () => {
  it('fills every placeholder, percent-encoded', () => {
    expect(fillTemplate('/api/v1/trips/{tripPlanId}/daily-plans/{dayNumber}', { tripPlanId: 7, dayNumber: 2 })).toBe('/api/v1/trips/7/daily-plans/2');
    expect(fillTemplate('/user/sub/chat/{chatRoomId}', { chatRoomId: 'a/b c' })).toBe('/user/sub/chat/a%2Fb%20c');
  });

  it('takes the values from a function', () => {
    expect(fillTemplate('/{a}/{b}', (name) => name.toUpperCase())).toBe('/A/B');
  });

  it('refuses a placeholder without a value, rather than leaving it in the URL', () => {
    expect(() => fillTemplate('/trips/{tripPlanId}', {})).toThrow('{tripPlanId}');
    expect(() => fillTemplate('/trips/{toString}', {})).toThrow('{toString}');
    expect(() => fillTemplate('/trips/{tripPlanId}', () => undefined)).toThrow('{tripPlanId}');
  });
});

describe('placeholderNames and mapPlaceholders', () => {
  it('list the names in order and rewrite them as is', () => {
    expect(placeholderNames('/trips/{tripPlanId}/days/{dayNumber}')).toEqual(['tripPlanId', 'dayNumber']);
    expect(placeholderNames('/healthz')).toEqual([]);
    expect(mapPlaceholders('/trips/{tripPlanId}/days/{dayNumber}', (name) => `:${name}`)).toBe('/trips/:tripPlanId/days/:dayNumber');
  });
});
