// Reads vitest's JSON report and prints the plain closing line CI recognises.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'test-artifacts/vitest.json';
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
// Suites that fail to load report no tests; count each as a failure so they cannot hide.
const failed = (report.numFailedTests ?? 0) + (report.testResults ?? []).filter((suite) => suite.status === 'failed' && (suite.assertionResults ?? []).length === 0).length;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
