/**
 * Root password strength (api/passwords.ts), held to what real clients send and the real API accepted, and to
 * what a strength score must refuse. The evidence (docs/spec-gaps.md "Root password strength"): linodego's
 * recorded requests and test code, terraform-provider-linode's acceptance tests, the API reference's examples.
 */
import { isWeakPassword, LEAST_PASSWORD_SCORE, passwordScore } from "../../api/passwords";

/** Accepted by the real API, with where it was sent. */
const ACCEPTED: Array<[string, string]> = [
  ["b4d_p455", "linodego cassettes, POST /linode/instances/N/disks with an image (before 2023): the weakest accepted"],
  ["c00lp@ss!", "linodego cassettes, POST /linode/instances (2022-2023)"],
  ["R34lBAdP455", "linodego cassettes, 267 creates, 21 disks, 16 rebuilds (2018-2023)"],
  ["R34lBAdP455LONGLONGLONGLONG", "linodego tests since 2023"],
  ["0o37Klm56P4ssw0rd", "linodego nodebalancer_configs_test.go"],
  ["r34!_b4d_p455", "linodego instances_test.go, a disk password reset (2025)"],
  ["teh83fx4tkoy4tfjzfycyhjk1b307op0ls7h1b3bt8kzxbngadj72jtomtjpybul", "terraform's acctest.RandString(64): lowercase letters and digits"],
  ["jjwfnt2rkyhmn8mf", "terraform's acctest.RandString(16)"],
  [".H?9RM6V'ixIX),:X+?UP6[[tdg4wpQ5EnccaV2,@+l8FSw@2F58<i3o16Cn68?6", "linodego's randPassword(): 64 of four kinds"],
  ["aComplexP@ssword", "the API reference's example"],
  ["a$eCure4assw0rd!43v51", "the API reference's example (password reset)"],
];

const REFUSED = ["password", "Password1", "Password123!", "aaaaaaaa", "abcdefgh", "12345678", "qwertyuiop", "qwerty123", "letmein123", "abcdefgh1"];

test("every password real clients sent and the real API accepted is strong enough", () => {
  const refused = ACCEPTED.filter(([p]) => isWeakPassword(p)).map(([p, where]) => `${p} (${where}): score ${passwordScore(p)}`);
  expect(refused).toEqual([]);
  // The threshold is the weakest accepted one's score: one higher would refuse it.
  expect(Math.min(...ACCEPTED.map(([p]) => passwordScore(p)))).toBe(LEAST_PASSWORD_SCORE);
});

test("common passwords, words with a digit, repeats, sequences and keyboard rows are weak", () => {
  expect(REFUSED.filter((p) => !isWeakPassword(p))).toEqual([]);
});
