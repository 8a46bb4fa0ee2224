/** Messages longer than this many segments are refused: carriers drop or truncate them. */
export const MAX_SMS_SEGMENTS = 10;

// GSM 03.38 default alphabet, one septet each. ESC (0x1B) is left out: it only introduces the
// extension table and never stands for itself.
const GSM_BASIC = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà",
);
// The extension table: ESC plus one septet, so two units that must stay in one segment.
const GSM_EXTENSION = new Set("\f^{}\\[~]|€");

const LIMITS = {
  "GSM-7": { single: 160, multipart: 153 },
  "UCS-2": { single: 70, multipart: 67 },
} as const;

/** How an SMS is encoded and how many segments (and units: septets or UTF-16 code units) it takes. */
export interface SmsSegments {
  encoding: "GSM-7" | "UCS-2";
  segments: number;
  units: number;
}

/**
 * Counts an SMS's segments the way carriers do: GSM-7 when every character is in the GSM
 * alphabet (160 units alone, 153 per part of a multipart message, whose header takes the rest),
 * else UCS-2 (70, or 67 per part). A character's units never straddle two parts: an escape pair
 * or a surrogate pair that does not fit in what is left of a part starts the next one.
 */
export function smsSegments(text: string): SmsSegments {
  const characters = [...text];
  const isGsm = characters.every((c) => GSM_BASIC.has(c) || GSM_EXTENSION.has(c));
  const encoding = isGsm ? "GSM-7" : "UCS-2";
  const unitsOf = isGsm ? (c: string) => (GSM_EXTENSION.has(c) ? 2 : 1) : (c: string) => c.length;

  let units = 0;
  for (const c of characters) units += unitsOf(c);
  const limit = LIMITS[encoding];
  if (units === 0) return { encoding, segments: 0, units };
  if (units <= limit.single) return { encoding, segments: 1, units };

  let segments = 1;
  let used = 0;
  for (const c of characters) {
    const size = unitsOf(c);
    if (used + size > limit.multipart) {
      segments++;
      used = 0;
    }
    used += size;
  }
  return { encoding, segments, units };
}
