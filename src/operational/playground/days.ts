// The days of the trip on the page: each one as its message arrives (a day generated, or changed
// by an edit), or all of them at once from the saved state (listDailyPlans) after a loss.
import type { components } from '@trip-itinerary/client';

type DailyPlan = components['schemas']['DailyPlanResponse'];

export interface DayList {
  show(day: DailyPlan): void;
  /** a day's message of the schedule channel: shown, and counted on the list (data-received) */
  arrived(day: DailyPlan): void;
  showAll(days: readonly DailyPlan[]): void;
  clear(): void;
  readonly count: number;
}

const element = (tag: string, text?: string, className?: string) => {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
};

function renderDay(day: DailyPlan): HTMLLIElement {
  const item = element('li', undefined, 'day') as HTMLLIElement;
  item.dataset.dayNumber = String(day.dayNumber);
  item.append(element('h3', `Day ${day.dayNumber} · ${day.date} · ${day.title}`));
  const stops = element('ol', undefined, 'stops');
  for (const stop of day.scheduledPlaces) {
    const travel = stop.travelTime === null ? '' : ` (${stop.travelTime} min by ${stop.transportation.toLowerCase().replaceAll('_', ' ')})`;
    stops.append(element('li', `${stop.category.toLowerCase()}: ${stop.place.name}${travel}`));
  }
  item.append(stops);
  return item;
}

/** The list of days, kept in day order; a day that comes again (an edit) replaces the one shown. */
export function createDayList(list: HTMLElement): DayList {
  return {
    show(day) {
      const shown = list.querySelector(`li[data-day-number="${day.dayNumber}"]`);
      const item = renderDay(day);
      if (shown) {
        shown.replaceWith(item);
        return;
      }
      const after = [...list.children].find((other) => other instanceof HTMLElement && Number(other.dataset.dayNumber) > day.dayNumber);
      list.insertBefore(item, after ?? null);
    },
    arrived(day) {
      list.dataset.received = String(Number(list.dataset.received ?? '0') + 1);
      this.show(day);
    },
    showAll(days) {
      list.replaceChildren(...days.map(renderDay));
    },
    clear() {
      list.replaceChildren();
      delete list.dataset.received;
    },
    get count() {
      return list.children.length;
    },
  };
}
