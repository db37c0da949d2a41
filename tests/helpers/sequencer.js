/**
 * Jest's order of the suites: the longest first, so that no worker sits idle at the end while another runs a
 * three-minute suite. Jest does this by itself from the durations in its cache, but a clean clone (CI) has
 * none and falls back to file size, which put long end-to-end suites last. Here a suite the cache does not
 * know takes its duration from DURATIONS (seconds, measured by `npm test -- --verbose` on this machine; a
 * rough figure is enough), else counts as short.
 */
const Sequencer = require("@jest/test-sequencer").default;
const path = require("node:path");

const DURATIONS = {
  "e2e/options.e2e.test.ts": 155,
  "e2e/backups.e2e.test.ts": 145,
  "e2e/database.e2e.test.ts": 130,
  "e2e/compute.e2e.test.ts": 125,
  "e2e/plans.e2e.test.ts": 120,
  "e2e/safety.e2e.test.ts": 115,
  "e2e/upgrade.e2e.test.ts": 110,
  "e2e/sshkey.e2e.test.ts": 100,
  "e2e/readme.e2e.test.ts": 90,
  "e2e/token.e2e.test.ts": 90,
  "integration/sdkgen.test.ts": 85,
  "e2e/naming.e2e.test.ts": 85,
  "e2e/cancel.e2e.test.ts": 80,
  "e2e/plugin-go.e2e.test.ts": 75,
  "e2e/plugin-python.e2e.test.ts": 55,
  "e2e/sdk-matrix.e2e.test.ts": 45,
  "e2e/policy.e2e.test.ts": 60,
  "e2e/cost.e2e.test.ts": 20,
  "e2e/drift.e2e.test.ts": 75,
  "e2e/errors-languages.e2e.test.ts": 55,
  "integration/cassette-replay.test.ts": 50,
  "e2e/dynamic-range.e2e.test.ts": 30,
  "e2e/network.e2e.test.ts": 75,
  "e2e/chaos.e2e.test.ts": 70,
  "e2e/switch.e2e.test.ts": 60,
  "e2e/plugin-yaml.e2e.test.ts": 60,
  "e2e/access.e2e.test.ts": 50,
  "e2e/plugin-ts.e2e.test.ts": 50,
  "e2e/release.e2e.test.ts": 40,
  "e2e/errors.e2e.test.ts": 35,
  "e2e/lookup.e2e.test.ts": 35,
  "integration/examples.test.ts": 30,
  "integration/faults.test.ts": 20,
  "integration/emulator-fuzz.property.test.ts": 17,
  "e2e/emulator-page.e2e.test.ts": 20,
  "e2e/linodego-waits.e2e.test.ts": 15,
  "integration/emulator-fixtures.test.ts": 9,
  "integration/emulator-durability.test.ts": 5,
  "integration/emulator-soak.test.ts": 5,
  "integration/emulator-compute-actions.test.ts": 16,
  "e2e/imports.e2e.test.ts": 15,
  "integration/rate-limit.test.ts": 15,
  "integration/plugin-operability.test.ts": 15,
  "unit/sdk-reference-types.test.ts": 10,
  "integration/instance.test.ts": 10,
  "integration/instance-delete.test.ts": 10,
  "integration/plugin-plan.test.ts": 10,
  "unit/sdk-types.test.ts": 10,
  "integration/config.test.ts": 4,
  "integration/disk.test.ts": 4,
  "integration/interface.test.ts": 2,
  "integration/provider-safety.test.ts": 10,
  "integration/instance-restore.test.ts": 7,
  "integration/database-restore.test.ts": 3,
  "integration/instance-snapshot.test.ts": 3,
  "integration/database-snapshot.test.ts": 2,
  "integration/emulator-compute-instances.test.ts": 3,
  "integration/emulator-compute-profiles-disks.test.ts": 3,
};

class LongestFirst extends Sequencer {
  sort(tests) {
    const seconds = (test) => {
      const cached = this.time(test);
      if (cached != null) return cached / 1000;
      const rel = path.relative(path.join(__dirname, ".."), test.path).split(path.sep).join("/");
      return DURATIONS[rel] ?? 5;
    };
    const known = new Map(tests.map((t) => [t, seconds(t)]));
    // Failed suites first (Jest's rule: the quickest answer to what broke), then the longest.
    return [...tests].sort((a, b) => Number(this.hasFailed(b)) - Number(this.hasFailed(a)) || known.get(b) - known.get(a));
  }
}

module.exports = LongestFirst;
