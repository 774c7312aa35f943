// Reads vitest's JSON reports (the unit suite under each Node line, then the live lab) and prints
// a line for each, then the plain closing line CI recognises, their counts added up. Each argument
// is `label=path` (or a path). A report that is missing counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.length > 2 ? process.argv.slice(2) : ['test-artifacts/vitest.json'];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const arg of args) {
  const split = arg.lastIndexOf('=');
  const [label, file] = split > 0 ? [arg.slice(0, split), arg.slice(split + 1)] : [arg, arg];
  if (!existsSync(file)) {
    console.log(`ci: ${label}: no report at ${file}`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const own = {
    passed: report.numPassedTests ?? 0,
    // Suites that fail to load report no tests; count each as a failure so they cannot hide.
    failed:
      (report.numFailedTests ?? 0) +
      (report.testResults ?? []).filter((suite) => suite.status === 'failed' && (suite.assertionResults ?? []).length === 0).length,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
  console.log(`ci: ${label}: ${own.passed} passed, ${own.failed} failed, ${own.skipped} skipped`);
  passed += own.passed;
  failed += own.failed;
  skipped += own.skipped;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
