import { randomBytes } from "node:crypto";

/** A strong random root password, for a deploy given none (kept as a secret output). */
export function generatedPassword(): string {
  const base = randomBytes(24).toString("base64").replace(/[+/=]/g, "");
  return `${base.slice(0, 24)}-Aa9`;
}
