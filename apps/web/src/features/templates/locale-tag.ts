const names = new Intl.DisplayNames(undefined, { type: "language" });

/** "fr-CA" → "French (Canada)", in the browser's language; the tag itself when it has no name. */
export function localeName(tag: string): string {
  try {
    return names.of(tag) ?? tag;
  } catch {
    return tag;
  }
}
