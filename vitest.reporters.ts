/**
 * With HERALD_TEST_REPORT_DIR set (CI), every run also writes a JSON report there, so .ci/run
 * can print one "N passed, N failed" line for all of them.
 */
export function testReporters(name: string): Array<string | [string, Record<string, unknown>]> {
  const dir = process.env.HERALD_TEST_REPORT_DIR;
  if (!dir) return ["default"];
  return ["default", ["json", { outputFile: `${dir}/${process.env.HERALD_TEST_REPORT_NAME ?? name}.json` }]];
}
