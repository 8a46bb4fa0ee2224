import { describe, expect, it } from "vitest";
import { canonicalLocale, localeFallbackChain, LocaleTagSchema, resolveLocale } from "../../src/templates/locales.ts";

describe("canonicalLocale", () => {
  it.each([
    ["en", "en"],
    ["EN-us", "en-US"],
    ["pt_BR", "pt-BR"],
    ["zh-hant-tw", "zh-Hant-TW"],
    ["es-419", "es-419"],
    ["iw", "he"],
  ])("canonicalises %s to %s", (tag, canonical) => {
    expect(canonicalLocale(tag)).toBe(canonical);
  });

  it.each([
    ["an unknown language", "xx"],
    ["an unknown language with a region", "xx-ZZ"],
    ["a known language with an unknown region", "en-XX"],
    ["the undetermined language", "und"],
    ["a private-use tag", "x-private"],
    ["garbage", "not a locale"],
    ["the empty string", ""],
  ])("refuses %s (%s)", (_label, tag) => {
    expect(canonicalLocale(tag)).toBeNull();
  });
});

describe("LocaleTagSchema", () => {
  it("outputs the canonical tag", () => {
    expect(LocaleTagSchema.parse("pt_br")).toBe("pt-BR");
  });

  it("names the unknown tag and shows what to use", () => {
    expect(LocaleTagSchema.safeParse("xx-ZZ").error?.issues[0]?.message).toBe(
      '"xx-ZZ" is not a known locale tag: use a BCP 47 tag such as "en" or "pt-BR"',
    );
  });
});

describe("localeFallbackChain", () => {
  it.each([
    ["pt-BR", "en", ["pt-BR", "pt", "en"]],
    ["zh-Hant-TW", "en", ["zh-Hant-TW", "zh-Hant", "zh", "en"]],
    ["en-US", "en", ["en-US", "en"]],
    ["en", "en", ["en"]],
    ["pt_br", "en", ["pt-BR", "pt", "en"]],
    ["de-DE-u-co-phonebk", "en", ["de-DE-u-co-phonebk", "de-DE", "de", "en"]],
    ["xx-ZZ", "en", ["en"]],
    ["garbage!", "fr", ["fr"]],
    [null, "en", ["en"]],
    [undefined, "en", ["en"]],
    ["", "en", ["en"]],
  ])("%s with default %s → %j", (requested, defaultLocale, chain) => {
    expect(localeFallbackChain(requested, defaultLocale)).toEqual(chain);
  });
});

describe("resolveLocale", () => {
  it("picks the most specific available locale", () => {
    expect(resolveLocale("pt-BR", ["en", "pt", "pt-BR"], "en")).toBe("pt-BR");
    expect(resolveLocale("pt-PT", ["en", "pt", "pt-BR"], "en")).toBe("pt");
  });

  it("falls back to the default when nothing in the chain is available", () => {
    expect(resolveLocale("fr-CA", ["en", "de"], "en")).toBe("en");
    expect(resolveLocale("xx", ["en", "de"], "en")).toBe("en");
  });

  it("compares case-insensitively on canonical forms and returns the key as spelled", () => {
    expect(resolveLocale("PT-br", ["en", "pt_BR"], "en")).toBe("pt_BR");
  });

  it("is null when neither the chain nor the default is available", () => {
    expect(resolveLocale("fr", ["de"], "en")).toBeNull();
  });
});
