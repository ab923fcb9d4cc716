// The playground's trip form: its fields are made from the spec by the server
// (playgroundForm.ts); the regions come from listRegions. Reads the form as a
// TripPlanCreateRequest, the themes checked within the schema's bounds.
/* global document, FormData */

const isoDate = (date) => date.toISOString().slice(0, 10);

/** Fills the region list (listRegions) and a start date a week from today. */
export async function prepareTripForm(form, client) {
  const answer = await client.operations.listRegions();
  if (!answer.ok) throw new Error(`listRegions answered ${answer.status}`);
  const select = form.elements.namedItem('region');
  select.replaceChildren(
    ...answer.data.regions.map((region) => {
      const option = document.createElement('option');
      option.value = region.name;
      option.textContent = region.aliases.length > 0 ? `${region.name} (${region.aliases[0]})` : region.name;
      return option;
    }),
  );
  form.elements.namedItem('startDate').value = isoDate(new Date(Date.now() + 7 * 86_400_000));
}

/** The request body the form says, or a sentence saying what is missing. */
export function tripRequestOf(form) {
  const fields = new FormData(form);
  const themes = fields.getAll('themes');
  const bounds = document.getElementById('themes').dataset;
  const most = bounds.maxItems ? Number(bounds.maxItems) : Infinity;
  if (themes.length < Number(bounds.minItems) || themes.length > most)
    return { problem: `Pick ${bounds.minItems} to ${bounds.maxItems || 'any number of'} themes.` };
  return {
    request: {
      region: fields.get('region'),
      themes,
      startDate: fields.get('startDate'),
      duration: Number(fields.get('duration')),
      peopleCount: Number(fields.get('peopleCount')),
      transportation: fields.get('transportation'),
    },
  };
}
