// A Vitest reporter for npm test (scripts/test.mjs): each test file's whole time (environment, import, collect,
// hooks and tests) to .test-results/durations.json, so the run can name its slowest files.
import fs from 'node:fs';
import path from 'node:path';

export default class DurationsReporter {
  files = [];
  onTestModuleEnd(testModule) {
    const d = testModule.diagnostic();
    const ms = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
    this.files.push({ file: path.relative(process.cwd(), testModule.moduleId), project: testModule.project.name, ms: Math.round(ms) });
  }
  onTestRunEnd() {
    const out = path.resolve('.test-results');
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(
      path.join(out, 'durations.json'),
      JSON.stringify(
        this.files.sort((a, b) => b.ms - a.ms),
        null,
        1,
      ),
    );
  }
}
