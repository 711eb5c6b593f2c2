import { randomBytes } from "node:crypto";

/** A time-sortable id (base-36 milliseconds, then random). */
export function sortableId(): string {
  return Date.now().toString(36).padStart(9, "0") + randomBytes(6).toString("hex");
}
