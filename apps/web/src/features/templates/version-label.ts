/** "v3", or "Draft" for the version that has no number yet. */
export function versionLabel(version: number | null): string {
  return version === null ? "Draft" : `v${version}`;
}
