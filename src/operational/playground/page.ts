// What the playground's modules read of the page the server rendered (playgroundPage.ts): elements
// it always has, and a form's text fields.

/** An element the page always has; its absence is a page this script was not written for. */
export function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The playground page has no #${id}`);
  return found as T;
}

/** A field's text in a form's data (a file input would be no text: ''). */
export function textOf(fields: FormData, name: string): string {
  const value = fields.get(name);
  return typeof value === 'string' ? value : '';
}

/** A form's text field as typed. */
export const fieldText = (form: HTMLFormElement, name: string): string => textOf(new FormData(form), name);

/** The button that submits a form the page renders with one. */
export function submitButtonOf(form: HTMLFormElement): HTMLButtonElement {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!button) throw new Error(`The form #${form.id} has no submit button`);
  return button;
}
