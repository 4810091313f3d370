/** "a", "a and b", "a, b and c": a list as a sentence names it. */
export const listed = (items: readonly (string | number)[]): string =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
