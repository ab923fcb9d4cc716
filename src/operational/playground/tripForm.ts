// The playground's trip form: its fields are made from the spec by the server
// (playgroundForm.ts); the regions come from listRegions. Reads the form as a
// TripPlanCreateRequest, the themes checked within the schema's bounds.
import type { components, TripClient } from '@trip-itinerary/client';
import { element, textOf } from './page.js';

type Schemas = components['schemas'];

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** A control the form always has (playgroundForm.ts renders it). */
function control<T extends HTMLInputElement | HTMLSelectElement>(form: HTMLFormElement, name: string): T {
  const found = form.elements.namedItem(name);
  if (!(found instanceof HTMLInputElement || found instanceof HTMLSelectElement)) throw new Error(`The trip form has no ${name} field`);
  return found as T;
}

/** Fills the region list (listRegions) and a start date a week from today. */
export async function prepareTripForm(form: HTMLFormElement, client: TripClient): Promise<void> {
  const answer = await client.operations.listRegions();
  if (!answer.ok) throw new Error(`listRegions answered ${answer.status}`);
  const select = control<HTMLSelectElement>(form, 'region');
  select.replaceChildren(
    ...answer.data.regions.map((region) => {
      const option = document.createElement('option');
      option.value = region.name;
      option.textContent = region.aliases.length > 0 ? `${region.name} (${region.aliases[0]})` : region.name;
      return option;
    }),
  );
  control<HTMLInputElement>(form, 'startDate').value = isoDate(new Date(Date.now() + 7 * 86_400_000));
}

/** The request body the form says, or a sentence saying what is missing. */
export function tripRequestOf(form: HTMLFormElement): { request: Schemas['TripPlanCreateRequest'] } | { problem: string } {
  const fields = new FormData(form);
  // The checkboxes' values are PlaceThemeType's enum (playgroundForm.ts renders them from the schema).
  const themes = fields.getAll('themes').filter((theme) => typeof theme === 'string') as Schemas['PlaceThemeType'][];
  const bounds = element('themes').dataset;
  const most = bounds.maxItems ? Number(bounds.maxItems) : Infinity;
  if (themes.length < Number(bounds.minItems) || themes.length > most)
    return { problem: `Pick ${bounds.minItems} to ${bounds.maxItems || 'any number of'} themes.` };
  return {
    request: {
      region: textOf(fields, 'region'),
      themes,
      startDate: textOf(fields, 'startDate'),
      duration: Number(fields.get('duration')),
      peopleCount: Number(fields.get('peopleCount')),
      // The select's options are Transportation's enum (playgroundForm.ts).
      transportation: textOf(fields, 'transportation') as Schemas['Transportation'],
    },
  };
}
