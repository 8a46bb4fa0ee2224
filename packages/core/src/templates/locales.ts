import { z } from "zod";

const LANGUAGE_NAMES = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
const REGION_NAMES = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });

function isKnown(names: Intl.DisplayNames, code: string): boolean {
  try {
    return names.of(code) !== undefined;
  } catch {
    // "und" and other reserved codes make `of` throw rather than answer.
    return false;
  }
}

/**
 * A locale tag in its canonical BCP 47 form ("pt_BR" → "pt-BR"), or null when it is ill-formed
 * or names a language (or region) ICU has never heard of: "xx" is well-formed but no one's
 * language, and content keyed by it would never be chosen.
 */
export function canonicalLocale(tag: string): string | null {
  let known = CANONICAL.get(tag);
  if (known === undefined) {
    known = canonicalise(tag);
    // Every send resolves its user's locale; the tags in use are few, so remember them.
    if (CANONICAL.size >= MAX_REMEMBERED) CANONICAL.clear();
    CANONICAL.set(tag, known);
  }
  return known;
}

const CANONICAL = new Map<string, string | null>();
const MAX_REMEMBERED = 1_000;

function canonicalise(tag: string): string | null {
  if (tag.length === 0 || tag.length > 64) return null;
  let locale: Intl.Locale;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag.replaceAll("_", "-"));
    if (canonical === undefined) return null;
    locale = new Intl.Locale(canonical);
  } catch {
    return null;
  }
  if (!isKnown(LANGUAGE_NAMES, locale.language)) return null;
  if (locale.region !== undefined && !isKnown(REGION_NAMES, locale.region)) return null;
  return locale.toString();
}

/** A locale tag, canonicalised. */
export const LocaleTagSchema = z.string().transform((tag, ctx) => {
  const canonical = canonicalLocale(tag);
  if (canonical !== null) return canonical;
  ctx.issues.push({
    code: "custom",
    input: tag,
    message: `${JSON.stringify(tag)} is not a known locale tag: use a BCP 47 tag such as "en" or "pt-BR"`,
  });
  return z.NEVER;
});

/**
 * The locales to try for a requested one, most specific first, ending with the default:
 * "zh-Hant-TW" → zh-Hant-TW, zh-Hant, zh, then the default. Extensions ("-u-ca-buddhist")
 * go first and are dropped next, since content is keyed by language, script and region.
 */
export function localeFallbackChain(requested: string | null | undefined, defaultLocale: string): string[] {
  const chain: string[] = [];
  const canonical = requested ? canonicalLocale(requested) : null;
  if (canonical !== null) {
    chain.push(canonical);
    const subtags = new Intl.Locale(canonical).baseName.split("-");
    for (let length = subtags.length; length > 0; length--) chain.push(subtags.slice(0, length).join("-"));
  }
  chain.push(canonicalLocale(defaultLocale) ?? defaultLocale);
  return [...new Set(chain)];
}

/** The first locale of the fallback chain that `available` holds (as spelled there), or null. */
export function resolveLocale(requested: string | null | undefined, available: readonly string[], defaultLocale: string): string | null {
  const byKey = new Map<string, string>();
  for (const locale of available) {
    const key = (canonicalLocale(locale) ?? locale).toLowerCase();
    if (!byKey.has(key)) byKey.set(key, locale);
  }
  for (const candidate of localeFallbackChain(requested, defaultLocale)) {
    const found = byKey.get(candidate.toLowerCase());
    if (found !== undefined) return found;
  }
  return null;
}
