import type { TypedValue } from "../core/scalar.ts";
import { parseDateTime, utcFields } from "../types/datetime.ts";
import { type Tokenizer, TokenizerId, type TokenizerName } from "./tokenizer.ts";

/**
 * `year`, `month`, `day`, `hour`: the UTC calendar fields of a datetime as big-endian u16s (Dgraph's
 * layout: year; year+month; year+month+day; year+month+day+hour). Sortable; lossy (a token covers a
 * whole year/month/day/hour).
 */
function calendarTokenizer(
  name: TokenizerName & ("year" | "month" | "day" | "hour"),
  fields: number,
): Tokenizer {
  const id = TokenizerId[name];
  return {
    name,
    id,
    sortable: true,
    lossy: true,
    allowedTypes: ["datetime"],
    tokens(value: TypedValue): Uint8Array[] {
      const parsed = parseDateTime(value.value as string);
      if (parsed === null) return [];
      const f = utcFields(parsed.epochMs);
      const out = new Uint8Array(1 + 2 * fields);
      out[0] = id;
      const parts = [f.year, f.month, f.day, f.hour];
      for (let i = 0; i < fields; i++) {
        out[1 + 2 * i] = parts[i] >>> 8;
        out[2 + 2 * i] = parts[i] & 0xff;
      }
      return [out];
    },
  };
}

export const yearTokenizer = calendarTokenizer("year", 1);
export const monthTokenizer = calendarTokenizer("month", 2);
export const dayTokenizer = calendarTokenizer("day", 3);
export const hourTokenizer = calendarTokenizer("hour", 4);
