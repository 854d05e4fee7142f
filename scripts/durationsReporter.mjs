// A Vitest reporter for npm test (scripts/test.mjs): each test file's whole time (environment, import, collect,
// hooks and tests), slowest first, to the file LS_DURATIONS_FILE names (default .test-results/durations.json), so the
// run can name its slowest files.
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
    const file = path.resolve(process.env.LS_DURATIONS_FILE || path.join('.test-results', 'durations.json'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify(
        this.files.sort((a, b) => b.ms - a.ms),
        null,
        1,
      ),
    );
  }
}
